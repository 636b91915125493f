import { EXIT, UsageError, type CliIO } from './command';
import { COMMANDS } from './registry';

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
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (
      err instanceof UsageError ||
      (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      io.stderr(`avap ${command.name}: ${err.message}\n${command.usage}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}
