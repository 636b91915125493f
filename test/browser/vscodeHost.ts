/** The shape of scripts/lib/vscodeHost.mjs (plain JavaScript), the helpers the browser tests, the editor suite and npm start share. */
export interface VscodeHost {
  CHROMIUM_ARGS: string[];
  CHROMIUM_BIN: string;
  CODE_SERVER_BIN: string;
  Children: new () => { killAll(): Promise<void> };
  freePort(): Promise<number>;
  requireChromium(): void;
  requireFile(file: string, hint: string): void;
  startCodeServer(
    children: InstanceType<VscodeHost['Children']>,
    options: {
      port: number;
      userDataDir: string;
      extensionsDir: string;
      workspace: string;
      onLog?: (t: string) => void;
    },
  ): Promise<unknown>;
  installVsix(vsix: string, extensionsDir: string, userDataDir: string): Promise<string>;
}
