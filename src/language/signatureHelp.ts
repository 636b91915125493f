/**
 * Signature help inside a call's parentheses — a catalogue command's or a
 * user function's — with the active parameter: the line up to the cursor is
 * scanned as the parser scans it (strings, templates and brackets nest, so a
 * comma inside them separates nothing) and the innermost open call wins. An
 * unfinished call (`RequestGet(` with nothing after it yet) is the common case.
 */
import { newScanState, scanLine, tokenAt, TokenKind } from '../parser/lexical';
import type { AvapDocument } from './document';
import { activeSignatureIndex, functionSignature, signaturesOfCommand, type SignatureInfo } from './signatures';
import type { Position } from './text';

export interface SignatureHelpResult {
  readonly signatures: readonly SignatureInfo[];
  readonly activeSignature: number;
  readonly activeParameter: number;
  /** The called name. */
  readonly name: string;
}

interface Frame {
  /** The called name; undefined for a bracket or a parenthesis that is no call. */
  readonly name: string | undefined;
  commas: number;
}

/** The innermost call open at `offset` on its line, and the commas before the cursor in it. */
function openCallAt(src: string, lineStart: number, offset: number): Frame | undefined {
  const tokens = scanLine(src, { start: lineStart, end: offset }, newScanState(), () => undefined);
  const stack: Frame[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokenAt(tokens, i);
    if (t.kind !== TokenKind.Punct) continue;
    if (t.text === '(' || t.text === '[' || t.text === '{') {
      const prev = tokens[i - 1];
      const name = t.text === '(' && prev?.kind === TokenKind.Ident ? prev.text : undefined;
      stack.push({ name, commas: 0 });
    } else if (t.text === ')' || t.text === ']' || t.text === '}') {
      stack.pop();
    } else if (t.text === ',') {
      const top = stack[stack.length - 1];
      if (top) top.commas++;
    }
  }
  // Inside a list or a dictionary inside an argument: the call around it, at its own argument.
  for (let i = stack.length - 1; i >= 0; i--) {
    const frame = stack[i] as Frame;
    if (frame.name !== undefined) return frame;
  }
  return undefined;
}

export function signatureHelp(doc: AvapDocument, p: Position): SignatureHelpResult | undefined {
  const statement = doc.tree.statements[p.line];
  if (!statement || statement.kind === 'comment' || statement.kind === 'blank') return undefined;
  const lineStart = doc.lines.lineStart(p.line);
  const offset = doc.lines.offsetAt(p);
  const frame = openCallAt(doc.text, lineStart, offset);
  if (!frame?.name) return undefined;
  const fn = doc.symbols.functions.get(frame.name);
  const signatures = fn
    ? [
        functionSignature(
          fn.name,
          fn.params.map((q) => q.text),
          fn.line,
        ),
      ]
    : signaturesOfCommand(frame.name);
  if (!signatures) return undefined;
  // The call's whole argument count (from the tree) picks among a command's signatures.
  const argCount =
    statement.kind === 'call' && statement.name.text === frame.name
      ? Math.max(statement.args.length, frame.commas + 1)
      : frame.commas + 1;
  return {
    name: frame.name,
    signatures,
    activeSignature: activeSignatureIndex(signatures, argCount),
    activeParameter: frame.commas,
  };
}
