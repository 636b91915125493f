import type { CliCommand } from './command';
import { validateCommand } from './commands/validate';
import { generateCommand } from './commands/generate';
import { askCommand } from './commands/ask';
import { metricsCommand } from './commands/metrics';
import { indexCommand } from './commands/index';
import { serveCommand } from './commands/serve';
import { exportCommand } from './commands/export';
import { evalCommand } from './commands/eval';
import { runCommand } from './commands/run';
import { testCommand } from './commands/test';
import { lspCommand } from './commands/lsp';
import { fmtCommand } from './commands/fmt';

/** Every subcommand of the CLI, in the order `--help` lists them. */
export const COMMANDS: readonly CliCommand[] = [
  validateCommand,
  fmtCommand,
  runCommand,
  testCommand,
  generateCommand,
  askCommand,
  metricsCommand,
  indexCommand,
  serveCommand,
  exportCommand,
  evalCommand,
  lspCommand,
];
