/**
 * Early abort while streaming (issue 12): the lines of an answer are checked
 * as they arrive, in-process with the parser library, so that an answer which
 * is already certain to be rejected stops costing model time.
 *
 * Only complete lines inside an AVAP code fence (unlabelled or `avap`: the
 * fences `extractCode` always validates) are checked: each time such a line
 * completes, the fence's code so far is parsed and the first *hard* finding
 * is reported. The decision depends on the content alone, never on timing: a
 * reply that completed before the abort reached the model is treated the same.
 * A hard finding is one that no later line can resolve, decided
 * by rule code (`STREAM_HARD_RULES`), never by message text:
 *
 * - foreign keywords, operators, calls, methods, typed declarations, `#`
 *   comments, `;` terminators, Python colons, brace bodies, foreign if / for /
 *   try / else and else-if chains, anonymous functions — each is wrong on its
 *   own line whatever follows;
 * - `unknown-command` only for a name the catalogue lists as one models invent
 *   for a built-in (`getParam` …): any other unknown name could still be a
 *   function defined further down (AVAP resolves calls at the end of the file).
 *
 * A hard finding that carries a proven fix does not stop the stream: the
 * deterministic repair (repairAnswer.ts) takes it once the answer is complete.
 *
 * Never hard: anything about blocks (an `if()` still open is what a program
 * looks like mid-stream), unclosed calls or strings (a line is complete, but
 * the rule is about structure), arity and argument shapes (kept for the
 * service's verdict), warnings.
 *
 * This only decides to stop generating; the answer's verdict always comes
 * from the parser service (the retry's answer is validated there).
 */
import { catalogue, Rule, validateAvap, type RuleCode, type TraceEntry } from '../../parser';
import { closesFence, fenceOpening, isAvapFenceLabel } from './extract';

export const LOG_EARLY_ABORT =
  'early abort — a streamed line is certain to be rejected; stopping the model and retrying with the trace';

/** Rules whose finding on a complete line no later line can resolve. */
export const STREAM_HARD_RULES: ReadonlySet<RuleCode> = new Set<RuleCode>([
  Rule.ForeignKeyword.code,
  Rule.ForeignOperator.code,
  Rule.ForeignCall.code,
  Rule.ForeignMethod.code,
  Rule.TypedDeclaration.code,
  Rule.ForeignLoop.code,
  Rule.ForeignIf.code,
  Rule.ForeignTry.code,
  Rule.ForeignElse.code,
  Rule.ElseIf.code,
  Rule.HashComment.code,
  Rule.StatementTerminator.code,
  Rule.PythonColon.code,
  Rule.BraceBody.code,
  Rule.AnonymousFunction.code,
  Rule.UnknownCommand.code,
]);

/**
 * Whether a finding on a complete line stops the stream: certain to stay (see
 * the module comment) and without a fix the parser could prove — a fixable
 * one is left to the deterministic repair once the answer is complete, which
 * costs no model call at all.
 */
export function isHardWhileStreaming(entry: TraceEntry): boolean {
  if (entry.severity !== 'error' || entry.fix !== undefined || !STREAM_HARD_RULES.has(entry.code)) return false;
  if (entry.code === Rule.UnknownCommand.code) return catalogue.findHallucination(entry.token) !== undefined;
  return true;
}

/** A fence longer than this is no longer checked while streaming (each line re-parses the fence so far). */
export const MAX_CHECKED_CHARS = 64 * 1024;

export interface HardFinding {
  /** The finding, its line relative to the fence's code. */
  entry: TraceEntry;
  /** Every hard finding of the code so far (the first is `entry`). */
  entries: TraceEntry[];
  /** The line of the answer text it is on (1-based). */
  responseLine: number;
  /** The line of the answer text that completed last (the check ran when it did). */
  lastLine: number;
  /** The fence's code up to and including the line. */
  code: string;
}

/** Watches a streamed answer; `push` every piece, it returns the first hard finding once (then nothing more). */
export class StreamCheck {
  private buffer = '';
  private lineNo = 0;
  private fence: { marker: string; avap: boolean; startLine: number; lines: string[] } | undefined;
  private thinking = false;
  private found: HardFinding | undefined;
  /** Parses made (one per complete code line). */
  parses = 0;

  /**
   * `parse(code, proofs)`: the findings of the code so far; with `proofs` the
   * parser also proves fixes. Each complete line is parsed without proofs (a
   * plain parse of the fence so far: microseconds); only a line that shows a
   * hard candidate is parsed again with proofs, to leave fixable findings to
   * the repair.
   */
  constructor(
    private readonly parse: (code: string, proofs: boolean) => readonly TraceEntry[] = (code, proofs) =>
      validateAvap(code, proofs ? {} : { maxFixProofs: 0 }).trace,
  ) {}

  /** The hard finding, once there is one. */
  get finding(): HardFinding | undefined {
    return this.found;
  }

  push(piece: string): HardFinding | undefined {
    if (this.found) return undefined;
    this.buffer += piece;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      const hit = this.line(line);
      if (hit) {
        this.found = hit;
        return hit;
      }
      newline = this.buffer.indexOf('\n');
    }
    return undefined;
  }

  private line(line: string): HardFinding | undefined {
    this.lineNo += 1;
    // Reasoning a model thinks aloud is never shown (stripThinking drops it).
    if (this.thinking) {
      if (line.includes('</think>')) this.thinking = false;
      return undefined;
    }
    if (!this.fence && line.includes('<think>') && !line.includes('</think>')) {
      this.thinking = true;
      return undefined;
    }
    if (!this.fence) {
      const opening = fenceOpening(line);
      if (opening)
        this.fence = {
          marker: opening.marker,
          avap: isAvapFenceLabel(opening.label),
          startLine: this.lineNo + 1,
          lines: [],
        };
      return undefined;
    }
    if (closesFence(line, this.fence.marker)) {
      this.fence = undefined;
      return undefined;
    }
    this.fence.lines.push(line);
    if (!this.fence.avap || !line.trim()) return undefined;
    const code = this.fence.lines.join('\n');
    if (code.length > MAX_CHECKED_CHARS) return undefined;
    this.parses += 1;
    if (!this.parse(code, false).some(isHardWhileStreaming)) return undefined;
    const entries = this.parse(code, true).filter(isHardWhileStreaming);
    const hard = entries[0];
    if (!hard) return undefined;
    return { entry: hard, entries, responseLine: this.fence.startLine + hard.line - 1, lastLine: this.lineNo, code };
  }
}
