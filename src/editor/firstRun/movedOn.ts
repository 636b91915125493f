/**
 * Whether the developer has moved on since they asked for the walkthrough
 * (the first-run notification's *Get Started*, AVAP: Get Started): then the
 * extension must not ask the Welcome editor for it again. Under code-server the
 * Welcome editor first shows VS Code's own page, because the extensions'
 * walkthroughs are registered some seconds late, and asking again in place is
 * only right while the developer is still waiting for it — never pulling them
 * away from what they went to do.
 *
 * Editor-free: walkthrough.ts feeds it the workbench's events as plain data.
 * What counts as moving on is what the extension API can see: a tab opened or
 * closed (other than the Welcome editor itself), another text editor made
 * active, the cursor moved by keyboard, mouse or a command, a document edited,
 * a terminal opened or focused. Commands as such are not observable through
 * the API; the ones a developer runs mostly show up as one of these.
 */

/** A tab as the check needs it: the Welcome editor has no input the API knows. */
export interface TabLike {
  label: string;
  /** Whether the API knows the tab's input (text, diff, webview, …); the Welcome editor's it does not. */
  hasInput: boolean;
}

/** The workbench's Welcome editor: the walkthrough's own tab (labelled "Welcome" until it shows a walkthrough). */
export function isWelcomeTab(tab: TabLike): boolean {
  return !tab.hasInput && (tab.label === 'Welcome' || tab.label.startsWith('Walkthrough: '));
}

export class MovedOn {
  private reason: string | undefined;

  /** @param startUri the text editor the developer was in when they asked for the walkthrough. */
  constructor(private readonly startUri?: string) {}

  /** Why the developer is considered to have moved on, or undefined. */
  get why(): string | undefined {
    return this.reason;
  }

  /** Tabs opened or closed: anything but the Welcome editor coming and going is the developer's doing. */
  tabs(opened: readonly TabLike[], closed: readonly TabLike[]): void {
    const other = [...opened, ...closed].find((tab) => !isWelcomeTab(tab));
    if (other) this.note(`tab ${opened.includes(other) ? 'opened' : 'closed'}: ${other.label}`);
  }

  /**
   * The active text editor changed. Only another text editor counts: the Welcome editor coming up leaves no
   * active text editor, and the file the developer was in shows again for a moment while the Welcome editor is
   * replaced — the walkthrough's own doing (a developer who goes back to a file moves its cursor, edits it or
   * leaves the Welcome editor, which counts).
   */
  activeEditor(uri: string | undefined): void {
    if (uri !== undefined && uri !== this.startUri) this.note(`editor: ${uri}`);
  }

  /** The selection changed; `byUser` is false for programmatic changes (no kind). */
  selection(byUser: boolean): void {
    if (byUser) this.note('cursor moved');
  }

  /** A document the developer works on was edited (the output channels' documents do not count). */
  edit(scheme: string): void {
    if (scheme === 'file' || scheme === 'untitled' || scheme === 'vscode-remote' || scheme === 'vscode-userdata')
      this.note(`edited a document (${scheme})`);
  }

  terminal(): void {
    this.note('terminal');
  }

  private note(reason: string): void {
    this.reason ??= reason;
  }
}
