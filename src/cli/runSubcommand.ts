/**
 * Runs one subcommand with its arguments: `--help` prints its usage, a usage
 * error prints the message and the usage and exits 2. No registry here, so an
 * entry that knows its command (`lsp`, which an editor starts and waits for)
 * runs it without loading every other command.
 */
import { EXIT, UsageError, type CliCommand, type CliIO } from './command';

export async function runSubcommand(command: CliCommand, rest: string[], io: CliIO): Promise<number> {
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
