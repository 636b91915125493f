/**
 * Semantic tokens: what each name is, for colouring beyond the grammar's
 * (which cannot tell a variable from the text a bare word becomes).
 *
 * | what | token type | modifiers |
 * | --- | --- | --- |
 * | a catalogue command | `function` | `defaultLibrary` |
 * | a user function | `function` | `declaration` where defined |
 * | a variable (assigned, or read where it names one) | `variable` | `declaration` where assigned |
 * | a function's parameter, in its function | `parameter` | `declaration` in the header |
 * | a literal key (a key argument that is text: a JSON key, a request parameter's name) | `property` | |
 * | a template's `${` and `}` around the name it interpolates | `operator` | |
 *
 * Standard types only, so every client colours them without configuration.
 * Encoded as the protocol's relative five-number groups.
 */
import type { AvapDocument } from './document';
import type { Occurrence } from './symbols';

import {
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  type SemanticTokenModifier,
  type SemanticTokenType,
} from './legend';

export { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES };

export interface SemanticTokenSpec {
  readonly line: number;
  readonly character: number;
  readonly length: number;
  readonly type: SemanticTokenType;
  readonly modifiers: readonly SemanticTokenModifier[];
}

interface Raw {
  start: number;
  end: number;
  type: SemanticTokenType;
  modifiers: readonly SemanticTokenModifier[];
}

const NONE: readonly SemanticTokenModifier[] = [];
const DECLARATION: readonly SemanticTokenModifier[] = ['declaration'];
const DEFAULT_LIBRARY: readonly SemanticTokenModifier[] = ['defaultLibrary'];

function isParameterOfItsFunction(doc: AvapDocument, o: Occurrence): boolean {
  if (!o.inFunction) return false;
  return doc.symbols.functions.get(o.inFunction)?.params.some((p) => p.text === o.name) === true;
}

function tokensOf(doc: AvapDocument, o: Occurrence, out: Raw[]): void {
  if (o.symbol === 'function') {
    out.push({ start: o.start, end: o.end, type: 'function', modifiers: o.role === 'definition' ? DECLARATION : NONE });
    return;
  }
  if (o.role === 'text') {
    if (o.param?.key)
      out.push({
        start: o.quoted ? o.start - 1 : o.start,
        end: o.quoted ? o.end + 1 : o.end,
        type: 'property',
        modifiers: NONE,
      });
    return;
  }
  const type = isParameterOfItsFunction(doc, o) ? 'parameter' : 'variable';
  if (o.delimiters) {
    const [open, openEnd, close, closeEnd] = o.delimiters;
    out.push({ start: open, end: openEnd, type: 'operator', modifiers: NONE });
    out.push({ start: o.start, end: o.end, type, modifiers: NONE });
    out.push({ start: close, end: closeEnd, type: 'operator', modifiers: NONE });
    return;
  }
  out.push({ start: o.start, end: o.end, type, modifiers: o.role === 'definition' ? DECLARATION : NONE });
}

/** Every token of the document in order, never overlapping (offsets). */
function rawTokens(doc: AvapDocument): Raw[] {
  const raw: Raw[] = doc.symbols.commands.map((c) => ({
    start: c.start,
    end: c.end,
    type: 'function' as const,
    modifiers: DEFAULT_LIBRARY,
  }));
  for (const o of doc.symbols.occurrences) tokensOf(doc, o, raw);
  raw.sort((a, b) => a.start - b.start);
  const out: Raw[] = [];
  let lastEnd = -1;
  for (const t of raw) {
    if (t.start < lastEnd || t.end <= t.start) continue; // never overlapping
    out.push(t);
    lastEnd = t.end;
  }
  return out;
}

/**
 * Every token of the document, in order.
 * @internal
 */
export function semanticTokenSpecs(doc: AvapDocument): SemanticTokenSpec[] {
  return rawTokens(doc).map((t) => {
    const p = doc.lines.positionAt(t.start);
    return { line: p.line, character: p.character, length: t.end - t.start, type: t.type, modifiers: t.modifiers };
  });
}

const modifierBits = (modifiers: readonly SemanticTokenModifier[]): number => {
  let bits = 0;
  for (const m of modifiers) bits |= 1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(m);
  return bits;
};

/**
 * The protocol's encoding: per token, line and start relative to the previous token, length, type index, modifier bits.
 * @internal
 */
export function encodeSemanticTokens(tokens: readonly SemanticTokenSpec[]): number[] {
  const data = new Array<number>(tokens.length * 5);
  let line = 0;
  let character = 0;
  let k = 0;
  for (const t of tokens) {
    const deltaLine = t.line - line;
    data[k++] = deltaLine;
    data[k++] = deltaLine === 0 ? t.character - character : t.character;
    data[k++] = t.length;
    data[k++] = SEMANTIC_TOKEN_TYPES.indexOf(t.type);
    data[k++] = modifierBits(t.modifiers);
    line = t.line;
    character = t.character;
  }
  return data;
}

/**
 * The document's tokens encoded, as semanticTokenSpecs then encodeSemanticTokens give them, without the objects
 * in between: the tokens come in order, so each one's line is found walking forward from the last one's.
 */
export function semanticTokens(doc: AvapDocument): number[] {
  const raw = rawTokens(doc);
  const data = new Array<number>(raw.length * 5);
  const lines = doc.lines;
  const lastLine = lines.lineCount - 1;
  let line = 0;
  let lineStart = 0;
  let prevLine = 0;
  let prevCharacter = 0;
  let k = 0;
  for (const t of raw) {
    while (line < lastLine && lines.lineStart(line + 1) <= t.start) lineStart = lines.lineStart(++line);
    const character = t.start - lineStart;
    const deltaLine = line - prevLine;
    data[k++] = deltaLine;
    data[k++] = deltaLine === 0 ? character - prevCharacter : character;
    data[k++] = t.end - t.start;
    data[k++] = SEMANTIC_TOKEN_TYPES.indexOf(t.type);
    data[k++] = t.modifiers === NONE ? 0 : modifierBits(t.modifiers);
    prevLine = line;
    prevCharacter = character;
  }
  return data;
}
