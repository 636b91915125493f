/**
 * Output calls of other languages — `print(x)`, `console.log(x)`,
 * `fmt.Println(x)`, `System.out.println(x)` — where AVAP answers with
 * `addResult(x)`. An endpoint's output is its response, so:
 *
 * - a program with no addResult at all meant its prints as the answer:
 *   `print(a, b)` → `addResult(a)`, `addResult(b)`;
 * - a print in a branch that sets the HTTP status (`_status = 404`) is that
 *   branch's answer: `addResult(x)`;
 * - otherwise — a printed name the response does not carry, in a program that
 *   answers with addResult — whether it was meant for the response is a
 *   guess: no fix.
 *
 * Only names the program sets are printed this way (an unset name prints its
 * own text where addResult would answer null), and only plain names: a message (`print("saved")`, an
 * f-string, `console.log("id", id)`) names no response field, so no fix
 * either. A print inside a loop is left alone (each pass would overwrite the
 * one field the answer gets).
 */
import { isIdentifier } from '../calls';
import { isPunct, TokenKind, type Token } from '../scanner';
import type { TraceEntry } from '../types';
import type { FixHint } from './candidates';
import { viewOf, type SourceView } from './view';
import { tokenAt } from '../cursor';

/** The output callees, as their dotted names. */
const OUTPUT = new Set([
  'print',
  'println',
  'console.log',
  'console.info',
  'fmt.Println',
  'fmt.Print',
  'System.out.println',
  'System.out.print',
  'puts',
]);

/** `callee` is an output call this module rewrites. */
export const isOutputCall = (callee: string): boolean => OUTPUT.has(callee);

/** The names a whole-line output call prints, or undefined when the line is not one of plain names. */
function printedNames(t: readonly Token[]): string[] | undefined {
  let i = 0;
  let callee = '';
  while (i < t.length && t[i]?.kind === TokenKind.Ident) {
    callee += tokenAt(t, i).text;
    if (isPunct(t[i + 1], '.') && t[i + 2]?.kind === TokenKind.Ident) {
      callee += '.';
      i += 2;
    } else {
      i++;
      break;
    }
  }
  if (!OUTPUT.has(callee) || !isPunct(t[i], '(')) return undefined;
  let end = t.length;
  if (isPunct(t[end - 1], ';')) end--;
  if (!isPunct(t[end - 1], ')')) return undefined;
  const names: string[] = [];
  for (let j = i + 1; j < end - 1; j += 2) {
    const x = tokenAt(t, j);
    if (x.kind !== TokenKind.Ident || !isIdentifier(x.text) || ['None', 'True', 'False'].includes(x.text))
      return undefined;
    names.push(x.text);
    if (j + 1 < end - 1 && !isPunct(t[j + 1], ',')) return undefined;
  }
  return names.length > 0 ? names : undefined;
}

/** True when the program answers with addResult somewhere. */
function answers(view: SourceView): boolean {
  for (let n = 1; n <= view.count; n++) {
    if (!view.text(n).includes('addResult')) continue;
    const t = view.tokens(n);
    if (t[0]?.text === 'addResult' && isPunct(t[1], '(')) return true;
  }
  return false;
}

/** True when the line sits in a loop: an AVAP loop open around it, or a foreign loop header less indented above it. */
function inLoop(view: SourceView, line: number): boolean {
  for (let n = view.openerOf(line); n !== undefined; n = view.openerOf(n))
    if (view.word(n) === 'startLoop') return true;
  let indent = view.indent(line).length;
  for (let n = line - 1; n >= 1 && indent > 0; n--) {
    if (view.isEmpty(n)) continue;
    const own = view.indent(n).length;
    if (own >= indent) continue;
    indent = own;
    const word = view.word(n)?.toLowerCase();
    if (word === 'for' || word === 'while' || word === 'foreach' || word === 'startloop') return true;
  }
  return false;
}

/** True when the statements beside `line` (same indentation, same branch) set `_status`. */
function setsStatusBeside(view: SourceView, line: number): boolean {
  const indent = view.indent(line);
  const isStatus = (n: number) => {
    const t = view.tokens(n);
    return t[0]?.text === '_status' && t[1]?.kind === TokenKind.Op && t[1].text === '=';
  };
  for (const step of [-1, 1]) {
    for (let n = line + step; n >= 1 && n <= view.count; n += step) {
      if (view.isEmpty(n)) continue;
      const own = view.indent(n);
      if (own.length < indent.length) break;
      if (own === indent && isStatus(n)) return true;
    }
  }
  return false;
}

export function outputCallFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    if (ctx.partial) return undefined; // whether the program answers with addResult is in lines not written yet
    const view = viewOf(ctx);
    const names = printedNames(view.tokens(line));
    if (!names || inLoop(view, line)) return undefined;
    if (!names.every((n) => view.assignedIn(n, 1, view.count))) return undefined;
    if (!setsStatusBeside(view, line) && answers(view)) return undefined;
    const indent = view.indent(line);
    const text = names.map((n) => `addResult(${n})`).join(`${ctx.eol}${indent}`);
    return {
      title: `Answer with ${names.map((n) => `'addResult(${n})'`).join(', ')}`,
      edits: [{ start: view.contentStart(line), end: view.end(line), newText: text }],
    };
  };
}
