import { EXIT, type CliIO } from './command';
import { COMMANDS } from './registry';
import { runSubcommand } from './runSubcommand';

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: node dist/cli.js <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun a command with --help for its options.\n`;
}

/** Runs one CLI invocation and returns the exit code. Never throws for user errors. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(overview());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`avap: unknown command '${name}'\n${overview()}`);
    return EXIT.usage;
  }
  return runSubcommand(command, rest, io);
}
