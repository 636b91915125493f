/**
 * Cheap, deterministic features of an answer, written with each training
 * signal by `export --features` (the numeric vector `numericFeatures`) for a
 * model trained outside the extension. Pure; no I/O.
 */
import { extractCode, stripThinking } from '../core';
import { detectCommands, stripAvap, tokenize } from '../knowledge';
import {
  findCommand,
  findForeignCall,
  findForeignStatement,
  findForeignWord,
  findHallucination,
} from '../parser/catalogue';
import type { QualityInput } from './port';

export interface AnswerFeatures {
  answerTerms: number;
  /** Share of the answer's distinct terms that are not in the question (0–1). */
  novelty: number;
  /** The answer only says the question back (few terms of its own). */
  restatesQuestion: boolean;
  /** Catalogue commands the answer names (as calls, in backticks, or unambiguous camelCase names). */
  commandsNamed: string[];
  /** Names models are known to invent (getSHA256…) that the answer uses. */
  hallucinations: string[];
  /** Of `commandsNamed`, those the retrieved context also mentions. */
  commandsInContext: string[];
  /** Share of the answer's distinct terms found in the context (0–1; 0 without context). */
  contextOverlap: number;
  hasContext: boolean;
  codeBlocks: number;
  /** Catalogue commands called inside the answer's code. */
  commandsCalledInCode: string[];
  /** Markers of other languages inside the answer's code (`import`, `console.log`, `&&`…). */
  foreignMarkers: string[];
  /** Numbered or bulleted steps. */
  hasSteps: boolean;
}

const FOREIGN_OPERATORS = ['&&', '||', '===', '!==', ':=', '++', '+=', '->'];

function distinct(terms: readonly string[]): Set<string> {
  return new Set(terms);
}

/** Names in prose that refer to a catalogue entry: `name(`, `` `name` `` or a camelCase/underscore name. */
function namedIn(text: string, lookup: (name: string) => unknown): string[] {
  const found: string[] = [];
  const re = /(`?)([A-Za-z_][A-Za-z0-9_]*)(`?)(\s*\()?/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const name = m[2] as string;
    if (!lookup(name) || found.includes(name)) continue;
    const backticked = m[1] === '`' && m[3] === '`';
    const called = Boolean(m[4]);
    const unambiguous = /[A-Z_]/.test(name.slice(1)) || /[A-Z]/.test(name[0] ?? '');
    if (backticked || called || unambiguous) found.push(name);
  }
  return found;
}

function foreignMarkersIn(code: string): string[] {
  const { codeOnly } = stripAvap(code);
  const markers = new Set<string>();
  for (const line of codeOnly.split('\n')) {
    const text = line.trim();
    const first = /^([A-Za-z_]+)\b/.exec(text)?.[1];
    if (first && !findCommand(first) && findForeignStatement(first)) markers.add(first);
    for (const m of text.matchAll(/([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+)\s*\(/g)) {
      if (findForeignCall(m[1] as string)) markers.add(m[1] as string);
    }
    for (const word of text.match(/[A-Za-z_]+/g) ?? []) if (findForeignWord(word)) markers.add(word);
    for (const op of FOREIGN_OPERATORS) if (text.includes(op)) markers.add(op);
  }
  return [...markers];
}

export function answerFeatures(input: QualityInput): AnswerFeatures {
  const answer = stripThinking(input.answer);
  const answerTerms = tokenize(answer);
  const answerSet = distinct(answerTerms);
  const questionSet = distinct(tokenize(input.question));
  const own = [...answerSet].filter((t) => !questionSet.has(t));
  const novelty = answerSet.size ? own.length / answerSet.size : 0;
  const contextText = input.context.map((c) => `${c.title}\n${c.text}`).join('\n');
  const contextSet = distinct(tokenize(contextText));
  const contextOverlap =
    answerSet.size && contextSet.size ? [...answerSet].filter((t) => contextSet.has(t)).length / answerSet.size : 0;

  const blocks = extractCode(answer);
  const code = blocks.map((b) => b.code).join('\n');
  const commandsCalledInCode = detectCommands(code);
  const commandsNamed = [...new Set([...namedIn(answer, findCommand), ...commandsCalledInCode])];
  const hallucinations = namedIn(answer, findHallucination);
  const contextCommands = new Set(namedIn(contextText, findCommand));
  const commandsInContext = commandsNamed.filter((c) => contextCommands.has(c) || contextText.includes(`${c}(`));

  return {
    answerTerms: answerTerms.length,
    novelty,
    restatesQuestion: own.length < 4 || (novelty < 0.25 && answerSet.size < questionSet.size * 2),
    commandsNamed,
    hallucinations,
    commandsInContext,
    contextOverlap,
    hasContext: input.context.length > 0,
    codeBlocks: blocks.length,
    commandsCalledInCode,
    foreignMarkers: foreignMarkersIn(code),
    hasSteps: /^\s*(\d+[.)]|[-*])\s+\S/m.test(answer),
  };
}

/** The feature vector, names stable (they are the keys of a weights file). */
export function numericFeatures(f: AnswerFeatures): Record<string, number> {
  return {
    novelty: f.novelty,
    restates_question: f.restatesQuestion ? 1 : 0,
    commands_named: Math.min(5, f.commandsNamed.length) / 5,
    commands_in_context_share: f.commandsNamed.length ? f.commandsInContext.length / f.commandsNamed.length : 0,
    hallucinations: Math.min(3, f.hallucinations.length) / 3,
    context_overlap: f.contextOverlap,
    has_context: f.hasContext ? 1 : 0,
    code_blocks: Math.min(3, f.codeBlocks) / 3,
    commands_called_in_code: Math.min(5, f.commandsCalledInCode.length) / 5,
    foreign_markers: Math.min(3, f.foreignMarkers.length) / 3,
    has_steps: f.hasSteps ? 1 : 0,
  };
}

/** @internal */
export const FEATURE_NAMES: readonly string[] = Object.keys(
  numericFeatures({
    answerTerms: 0,
    novelty: 0,
    restatesQuestion: false,
    commandsNamed: [],
    hallucinations: [],
    commandsInContext: [],
    contextOverlap: 0,
    hasContext: false,
    codeBlocks: 0,
    commandsCalledInCode: [],
    foreignMarkers: [],
    hasSteps: false,
  }),
);
