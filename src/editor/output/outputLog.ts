/**
 * The editor's log: the "AVAP Assistant" output channel, a `LogOutputChannel`
 * (VS Code adds the time and the level, and the developer picks the level
 * shown: *Developer: Set Log Level…*). Every line — the core's and the
 * editor's own — goes through one logger, `prefixedLogger`, which adds the
 * `[ptvl]` prefix; no caller writes the prefix itself. A short in-memory tail
 * is kept for the extension API (tests and the "activation failed" message
 * read it).
 */
import * as vscode from 'vscode';
import { prefixedLogger, type Logger } from '../../core/ports';

/** The output channel's name, as the README and the workbench show it. */
const OUTPUT_CHANNEL_NAME = 'AVAP Assistant';

const TAIL = 500;

export class OutputLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly tail: string[] = [];
  /** The one logger: prefixes `[ptvl]` and writes to the channel at the line's level. */
  readonly logger: Logger;

  constructor() {
    this.channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
    this.logger = prefixedLogger((line, level) => {
      if (level === 'warn') this.channel.warn(line);
      else this.channel.info(line);
      this.remember(level === 'warn' ? `WARN ${line}` : line);
    });
  }

  /** A line as it is, without the prefix (the "activation failed" report, before anything else works). */
  write(line: string): void {
    this.channel.error(line);
    this.remember(line);
  }

  info(line: string): void {
    this.logger.info(line);
  }

  warn(line: string): void {
    this.logger.warn(line);
  }

  lines(): string[] {
    return [...this.tail];
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }

  private remember(line: string): void {
    this.tail.push(line);
    if (this.tail.length > TAIL) this.tail.shift();
  }
}
