import type { CliCommand } from './command';
import { validateCommand } from './commands/validate';

/** Every subcommand of the CLI, in the order `--help` lists them. */
export const COMMANDS: readonly CliCommand[] = [validateCommand];
