import assert from 'node:assert/strict';
import { validateAvap } from '../../../src/parser';
import type { TraceEntry } from '../../../src/parser/types';
import {
  countSeverities,
  diagnosticMessage,
  documentFix,
  replacementFix,
  tracedLineLengths,
  traceToDiagnosticSpecs,
} from '../../../src/language';

const lengthsOf = (text: string) => text.split('\n').map((l) => l.length);

const entry = (over: Partial<TraceEntry>): TraceEntry => ({
  line: 1,
  column: 1,
  endColumn: 2,
  severity: 'error',
  category: 'syntax_error',
  code: 'not-a-statement',
  message: 'm',
  token: 't',
  ...over,
});

describe('editor: trace → diagnostics', () => {
  it('maps a real parser trace to exact 0-based ranges with the rule code as code', () => {
    const source = 'addParam(password, p)\ngetSHA256(p, h)\naddResult(h)\n';
    const result = validateAvap(source);
    const [spec] = traceToDiagnosticSpecs(result.trace, lengthsOf(source));
    assert.ok(spec);
    assert.deepEqual({ line: spec.line, start: spec.start, end: spec.end }, { line: 1, start: 0, end: 9 });
    assert.equal(spec.code, 'unknown-command');
    assert.equal(spec.severity, 'error');
    assert.equal(spec.suggestion, 'encodeSHA256');
    assert.match(spec.message, /encodeSHA256/);
  });

  it('spells out a suggestion unless the rule quotes it in its message', () => {
    assert.equal(
      diagnosticMessage({ code: 'invalid-comparator', message: 'bad comparator', suggestion: '>=' }),
      "bad comparator (suggestion: '>=')",
    );
    assert.equal(
      diagnosticMessage({ code: 'unknown-command', message: "did you mean 'addVar'?", suggestion: 'addVar' }),
      "did you mean 'addVar'?",
    );
    assert.equal(diagnosticMessage({ code: 'not-a-statement', message: 'plain' }), 'plain');
  });

  it('offers the suggestion as a replacement only where the rule has one', () => {
    assert.deepEqual(replacementFix({ code: 'unknown-command', suggestion: 'encodeSHA256' }, 'getSHA256'), {
      title: "Replace 'getSHA256' with 'encodeSHA256'",
      replacement: 'encodeSHA256',
    });
    assert.equal(replacementFix({ code: 'unknown-command' }, 'frobnize'), undefined);
    assert.equal(replacementFix({ code: 'not-a-statement', suggestion: 'x' }, 'y'), undefined);
  });

  it('carries the proven fix in 0-based document positions, several edits and line breaks included', () => {
    const source = 'addParam("n", n)\nif(n, 1, =) {\n  addVar(a, 1)\n}\naddResult(a)\n';
    const specs = traceToDiagnosticSpecs(validateAvap(source).trace, lengthsOf(source));
    const brace = specs.find((s) => s.code === 'brace-body');
    assert.deepEqual(brace?.fix, {
      title: "Drop the braces: close with 'end()'",
      edits: [
        { line: 1, character: 11, endLine: 1, endCharacter: 13, newText: '' },
        { line: 3, character: 0, endLine: 3, endCharacter: 1, newText: 'end()' },
      ],
    });
  });

  it('drops a fix that does not fit the document rather than clamping it elsewhere', () => {
    const edit = { line: 2, column: 1, endLine: 3, endColumn: 1, newText: 'x' };
    assert.deepEqual(documentFix({ title: 't', edits: [edit] }, [4, 4, 0])?.edits, [
      { line: 1, character: 0, endLine: 2, endCharacter: 0, newText: 'x' },
    ]);
    assert.equal(documentFix({ title: 't', edits: [{ ...edit, endLine: 9 }] }, [4, 4, 0]), undefined);
    assert.equal(documentFix({ title: 't', edits: [{ ...edit, column: 6 }] }, [4, 4, 0]), undefined);
    assert.equal(documentFix({ title: 't', edits: [] }, [4]), undefined);
  });

  it('clamps lines and columns into the document', () => {
    const lengths = [5, 3];
    const [beyondLine, beyondColumn] = traceToDiagnosticSpecs(
      [entry({ line: 9, column: 1, endColumn: 3 }), entry({ line: 1, column: 4, endColumn: 40 })],
      lengths,
    );
    assert.deepEqual(beyondLine && [beyondLine.line, beyondLine.start, beyondLine.end], [1, 0, 2]);
    assert.deepEqual(beyondColumn && [beyondColumn.line, beyondColumn.start, beyondColumn.end], [0, 3, 5]);
  });

  it('needs only the lengths of the lines its entries name (one slot per line, the rest unread)', () => {
    const lengths = new Array<number>(1000);
    lengths[499] = 20;
    lengths[999] = 7;
    const [named, beyond] = traceToDiagnosticSpecs(
      [entry({ line: 500, column: 1, endColumn: 10 }), entry({ line: 4000, column: 1, endColumn: 3 })],
      lengths,
    );
    assert.deepEqual(named && [named.line, named.start, named.end], [499, 0, 9]);
    assert.deepEqual(beyond && [beyond.line, beyond.start, beyond.end], [999, 0, 2]);
  });

  it('measures the lines the entries and their fixes name, and keeps the fix of an unclosed block whose closer goes on a later line', () => {
    const source = 'addParam(password, password)\nif(password, "x", !=)\n  addResult(password)\n';
    const lines = source.split('\n');
    const read: number[] = [];
    const lengths = tracedLineLengths(validateAvap(source).trace, lines.length, (line) => {
      read.push(line);
      return (lines[line] ?? '').length;
    });
    const close = traceToDiagnosticSpecs(validateAvap(source).trace, lengths).find((s) => s.code === 'unclosed-block');
    assert.ok(close?.fix, 'the closer fits: the line it edits was measured');
    assert.ok(!read.includes(0), 'a line nobody names is never read');
    assert.equal(new Set(read).size, read.length, 'each line read once');
  });

  it('widens an empty range so the squiggle is visible', () => {
    const [atEnd, emptyLine] = traceToDiagnosticSpecs(
      [entry({ line: 1, column: 6, endColumn: 6 }), entry({ line: 2, column: 1, endColumn: 1 })],
      [5, 0],
    );
    assert.deepEqual(atEnd && [atEnd.start, atEnd.end], [0, 5]);
    assert.deepEqual(emptyLine && [emptyLine.start, emptyLine.end], [0, 0]);
  });

  it('counts errors and warnings', () => {
    assert.deepEqual(countSeverities([entry({}), entry({ severity: 'warning' }), entry({})]), {
      errors: 2,
      warnings: 1,
    });
  });
});
