/**
 * Early abort while streaming: the lines of an answer are checked as they
 * arrive, in-process with the parser library, so that an answer which is
 * already certain to be rejected stops costing model time.
 *
 * Only complete lines inside an AVAP code fence (unlabelled or `avap`: the
 * fences `extractCode` always validates) are checked. The decision depends on
 * the content alone, never on timing: a reply that completed before the abort
 * reached the model is treated the same.
 *
 * **Cost: the new line's, and the event loop is never held.**
 * Each line is analysed once, on its own, by a line-by-line analysis that
 * carries the program's state from line to line (parser LineAnalysis): what
 * the whole program's analysis reports while reading that line, for that
 * line's work — where the fence was parsed again on every line (60 KB answers
 * cost seconds, one shape blocked REST's event loop for 15 s). A full parse
 * (with proofs) runs only to confirm a candidate, at most once each time the
 * fence has doubled since the last one: all of them together cost about two
 * parses of the fence, none more than one parse of MAX_CHECKED_CHARS, so no
 * call into the check holds the event loop longer than that (a worker thread
 * would add a copy of the answer per line and an asynchronous decision whose
 * drafts depend on timing, for a slice that is already milliseconds).
 *
 * A hard finding is one that no later line can resolve, decided by rule code
 * (`STREAM_HARD_RULES`), never by message text: foreign keywords, operators,
 * calls, methods, typed declarations, `#` comments, `;` terminators, Python
 * colons, brace bodies, foreign if / for / try / else and else-if chains,
 * anonymous functions — each is wrong on its own line whatever follows.
 *
 * Never hard: anything about blocks (an `if()` still open is what a program
 * looks like mid-stream), unclosed calls or strings, arity and argument
 * shapes (kept for the service's verdict), warnings, and unknown names — a
 * call to a name not defined yet may be to a function defined further down
 * (`hashed = readParam(pwd)` above `function readParam(s)` is valid).
 *
 * **Only what no proven fix can repair stops the stream**: a hard
 * finding with a proven fix is left to the deterministic repair
 * (repairAnswer.ts), which costs no model call. A fix may need lines that
 * have not arrived: `for i in range(1, n):` becomes a loop once its indented
 * body is known, `if (x) {` once its `}` closes it. So a finding waits until
 * its construct is complete — at once for a line on its own; for a line
 * ending in `:` (or `(`) until a later line is no deeper (and is not an
 * `else`/`except`… branch of it); for a line opening a brace block (or an
 * `else if`) until that block has closed — and only then is its fix proven,
 * on the code so far.
 *
 * This only decides to stop generating; the answer's verdict always comes
 * from the parser service (the retry's answer is validated there).
 */
import { LineAnalysis, Rule, validateAvap, type RuleCode, type TraceEntry } from '../../parser';
import { closesFence, fenceOpening, isAvapFenceLabel } from './extract';

export const LOG_EARLY_ABORT =
  'early abort — a streamed line is certain to be rejected; stopping the model and retrying with the trace';

/** Rules whose finding on a complete line no later line can resolve. */
const STREAM_HARD_RULES: ReadonlySet<RuleCode> = new Set<RuleCode>([
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
]);

/**
 * Whether a finding on a complete line stops the stream: certain to stay (see
 * the module comment) and without a fix the parser could prove — a fixable
 * one is left to the deterministic repair once the answer is complete, which
 * costs no model call at all.
 * @internal
 */
export function isHardWhileStreaming(entry: TraceEntry): boolean {
  return entry.severity === 'error' && entry.fix === undefined && STREAM_HARD_RULES.has(entry.code);
}

/** A fence longer than this is no longer checked while streaming (a confirming parse stays this small). */
const MAX_CHECKED_CHARS = 64 * 1024;

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

/** When a hard finding's construct is complete, so that the proof of its fix means what it will mean. */
type Completion =
  | { kind: 'line' }
  /** A later line no deeper than `indent` that is not a branch of the construct. */
  | { kind: 'dedent'; indent: string }
  /** The block stack back below `depth`. */
  | { kind: 'closed'; depth: number };

interface Candidate {
  line: number;
  code: RuleCode;
  column: number;
  completion: Completion;
  complete: boolean;
}

/** A line that continues the construct above it at the same depth: `else:`, `} catch (e) {`, `elif …`. */
const BRANCH = /^\s*(?:\}\s*)?(?:else|elif|except|catch|finally)\b/;

const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? '';

/** How `line` (with its hard finding) is completed: by itself, by a later shallower line, or when its block closes. */
function completionOf(line: string, depth: number): Completion {
  const text = line.replace(/\/\/.*$/, '').trim();
  if (text.endsWith('{') || /^else\s+if\b/.test(text)) return { kind: 'closed', depth };
  if (text.endsWith(':') || text.endsWith('(')) return { kind: 'dedent', indent: indentOf(line) };
  return { kind: 'line' };
}

interface Fence {
  marker: string;
  avap: boolean;
  startLine: number;
  lines: string[];
  length: number;
  analysis: LineAnalysis;
  candidates: Candidate[];
  /** Length of the code when a full parse last confirmed candidates (0: never). */
  confirmedAt: number;
}

/** Watches a streamed answer; `push` every piece, it returns the first hard finding once (then nothing more). */
export class StreamCheck {
  private buffer = '';
  private lineNo = 0;
  private fence: Fence | undefined;
  private thinking = false;
  private found: HardFinding | undefined;
  /** Lines analysed (one per complete code line). */
  lines = 0;
  /** Full parses made to confirm candidates. */
  parses = 0;

  /**
   * `parse(code, prove)`: the findings of the code so far, the fixes of the
   * entries `prove` accepts proven.
   */
  constructor(
    private readonly parse: (code: string, prove: (entry: TraceEntry) => boolean) => readonly TraceEntry[] = (
      code,
      prove,
    ) => validateAvap(code, { proveOnly: prove, partial: true }).trace,
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
          length: 0,
          analysis: new LineAnalysis(),
          candidates: [],
          confirmedAt: 0,
        };
      return undefined;
    }
    const fence = this.fence;
    if (closesFence(line, fence.marker)) {
      this.fence = undefined;
      return undefined;
    }
    fence.lines.push(line);
    fence.length += line.length + 1;
    if (!fence.avap || fence.length > MAX_CHECKED_CHARS) return undefined;
    this.lines += 1;
    const { findings, depth } = fence.analysis.line(line);
    if (line.trim()) this.complete(fence, line, depth);
    for (const entry of findings) {
      if (entry.severity !== 'error' || !STREAM_HARD_RULES.has(entry.code)) continue;
      const completion = completionOf(line, depth);
      fence.candidates.push({
        line: entry.line,
        code: entry.code,
        column: entry.column,
        completion,
        complete: completion.kind === 'line',
      });
    }
    return this.confirm(fence);
  }

  /** Marks the candidates whose construct this line completes. */
  private complete(fence: Fence, line: string, depth: number): void {
    const indent = indentOf(line);
    const branch = BRANCH.test(line);
    for (const c of fence.candidates) {
      if (c.complete) continue;
      const done = c.completion;
      if (done.kind === 'closed') c.complete = depth < done.depth;
      else if (done.kind === 'dedent')
        c.complete = !branch && !(indent.length > done.indent.length && indent.startsWith(done.indent));
    }
  }

  /**
   * Proves the fixes of the complete candidates on the code so far (when the
   * code has doubled since the last time), drops the fixable ones, and
   * returns the first hard finding left.
   */
  private confirm(fence: Fence): HardFinding | undefined {
    const ready = fence.candidates.filter((c) => c.complete);
    if (ready.length === 0 || (fence.confirmedAt > 0 && fence.length < 2 * fence.confirmedAt)) return undefined;
    fence.confirmedAt = fence.length;
    const code = fence.lines.join('\n');
    const key = (e: { line: number; code: string; column: number }) => `${e.line}:${e.column}:${e.code}`;
    const wanted = new Set(ready.map(key));
    this.parses += 1;
    const trace = this.parse(code, (e) => wanted.has(key(e)));
    const byKey = new Map(trace.map((e) => [key(e), e]));
    const entries: TraceEntry[] = [];
    for (const c of ready) {
      const entry = byKey.get(key(c));
      // Fixable (left to the repair), or gone (the full parse sees it otherwise): never a reason to stop.
      if (entry && isHardWhileStreaming(entry)) entries.push(entry);
    }
    fence.candidates = fence.candidates.filter((c) => !c.complete);
    entries.sort((a, b) => a.line - b.line || a.column - b.column);
    const hard = entries[0];
    if (!hard) return undefined;
    return {
      entry: hard,
      entries,
      responseLine: fence.startLine + hard.line - 1,
      lastLine: this.lineNo,
      code,
    };
  }
}
