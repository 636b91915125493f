/**
 * The "AVAP" output channel: every line the core writes (`[ptvl] …`) and the
 * editor's own notes. A short in-memory tail is kept for the extension API
 * (tests and the "activation failed" message read it).
 */
import * as vscode from 'vscode';
import { prefixedLogger, type Logger } from '../../core/ports';

const TAIL = 500;

export class OutputLog implements vscode.Disposable {
  readonly channel: vscode.OutputChannel;
  private readonly tail: string[] = [];
  /** The core's logger: prefixes `[ptvl]` and writes here. */
  readonly logger: Logger;

  constructor() {
    this.channel = vscode.window.createOutputChannel('AVAP');
    this.logger = prefixedLogger((line, level) => this.write(level === 'warn' ? `WARN ${line}` : line));
  }

  write(line: string): void {
    const stamped = `${new Date().toISOString()} ${line}`;
    this.channel.appendLine(stamped);
    this.tail.push(line);
    if (this.tail.length > TAIL) this.tail.shift();
  }

  /** `[ptvl]`-prefixed editor note. */
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
}
