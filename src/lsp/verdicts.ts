/**
 * The parser's verdict on each open document, in-process (the parser library
 * never throws and a 1,000-line file takes milliseconds), computed once per
 * version and published as diagnostics with the rule's code. Edits that
 * arrive together are validated once, right after the requests that came
 * with them have been answered.
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import { DiagnosticSeverity } from 'vscode-languageserver/node';
import { DIAGNOSTIC_SOURCE, LineMap, traceToDiagnosticSpecs, type DiagnosticSpec } from '../language';
import { validateAvap, type ValidationResult } from '../parser';

export interface Verdict {
  readonly version: number;
  readonly result: ValidationResult;
  readonly specs: readonly DiagnosticSpec[];
}

/**
 * The verdict of one text (pure): the parser's result and the diagnostics it becomes.
 * @internal
 */
export function verdictOf(text: string, version: number, filename: string): Verdict {
  const result = validateAvap(text, { filename });
  const lines = new LineMap(text);
  const lengths = Array.from({ length: lines.lineCount }, (_, i) => lines.lineEnd(i) - lines.lineStart(i));
  return { version, result, specs: traceToDiagnosticSpecs(result.trace, lengths) };
}

function toDiagnostic(spec: DiagnosticSpec): Diagnostic {
  return {
    range: { start: { line: spec.line, character: spec.start }, end: { line: spec.line, character: spec.end } },
    severity: spec.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: spec.code,
    source: DIAGNOSTIC_SOURCE,
    message: spec.message,
  };
}

export interface VerdictSource {
  /** The document's text and version now, or undefined once it is closed. */
  current(uri: string): { text: string; version: number } | undefined;
  publish(uri: string, version: number, diagnostics: Diagnostic[]): void;
}

export class Verdicts {
  private readonly verdicts = new Map<string, Verdict>();
  private readonly pending = new Map<string, NodeJS.Immediate>();

  constructor(private readonly source: VerdictSource) {}

  /**
   * Validates `uri` soon (once, however many changes arrive before): two turns of the event loop later, so
   * the requests that came with the edit — the connection handles one queued message per turn — are answered
   * first instead of waiting for the parse.
   */
  schedule(uri: string): void {
    if (this.pending.has(uri)) return;
    this.pending.set(
      uri,
      setImmediate(() => {
        this.pending.set(
          uri,
          setImmediate(() => {
            this.pending.delete(uri);
            this.validate(uri);
          }),
        );
      }),
    );
  }

  /** The verdict for the document's current version, computed now if it is not there yet. */
  get(uri: string): Verdict | undefined {
    const doc = this.source.current(uri);
    if (!doc) return undefined;
    const known = this.verdicts.get(uri);
    if (known?.version === doc.version) return known;
    return this.validate(uri);
  }

  forget(uri: string): void {
    const timer = this.pending.get(uri);
    if (timer) clearImmediate(timer);
    this.pending.delete(uri);
    this.verdicts.delete(uri);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearImmediate(timer);
    this.pending.clear();
  }

  private validate(uri: string): Verdict | undefined {
    const doc = this.source.current(uri);
    if (!doc) return undefined;
    const known = this.verdicts.get(uri);
    if (known?.version === doc.version) return known;
    const verdict = verdictOf(doc.text, doc.version, uri.split('/').pop() ?? 'document.avap');
    this.verdicts.set(uri, verdict);
    this.source.publish(uri, doc.version, verdict.specs.map(toDiagnostic));
    return verdict;
  }
}
