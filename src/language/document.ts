/**
 * One version of an AVAP document and what is known about it, each computed
 * on first use and kept: the line map, the syntax tree, the names it defines
 * and uses. The editor adapter and the language server keep one per open
 * document version, so every request after the first reads what is there.
 */
import { LineMap } from './text';

export class AvapDocument {
  readonly lines: LineMap;

  constructor(readonly text: string) {
    this.lines = new LineMap(text);
  }
}
