/**
 * Every AVAP program the knowledge base teaches (document blocks, pool
 * examples, golden reference code), and a small line-level reading of them
 * that the run-time checks share: the command calls with their top-level
 * arguments, the names each program assigns, and which lines sit inside a
 * counted loop. It reads the programs the way the reference implementation
 * does (one statement per line), which is enough for these checks; the parser
 * proper stays the judge of validity.
 */
import { catalogue } from '../../../src/parser';
import { avapCodeBlocks, loadDocs, loadExamplePool, loadGoldenSet } from '../../../src/knowledge';
import { repoKnowledgeDir, unwrap } from './helpers';

export interface Program {
  where: string;
  code: string;
}

/** Document blocks, pool examples and golden reference code, each with where it comes from. */
export function knowledgePrograms(): Program[] {
  const dir = repoKnowledgeDir();
  const programs: Program[] = [];
  for (const doc of unwrap(loadDocs(dir))) {
    for (const block of avapCodeBlocks(doc.body))
      programs.push({ where: `${doc.sourceDoc}:${block.line}`, code: block.code });
  }
  for (const e of unwrap(loadExamplePool(dir)).examples) programs.push({ where: `pool ${e.id}`, code: e.code });
  for (const e of unwrap(loadGoldenSet(dir)).entries) {
    if (e.referenceCode) programs.push({ where: `golden ${e.id}`, code: e.referenceCode });
  }
  return programs;
}

/** The text with its quoted parts ("…", '…', `…`) blanked, so operators and commas inside strings are ignored. */
export function withoutStrings(text: string): string {
  return text.replace(/"[^"\n]*"|'[^'\n]*'|`[^`\n]*`/g, (m) => m[0] + ' '.repeat(Math.max(0, m.length - 2)) + m[0]);
}

/** Arguments of a call's argument text, split at top-level commas (quotes, backticks and brackets nest). */
export function splitArguments(text: string): string[] {
  const args: string[] = [];
  let current = '';
  let depth = 0;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  args.push(current.trim());
  return args;
}

export interface Call {
  /** 0-based line index in the program. */
  line: number;
  command: string;
  args: string[];
  /** Inside a startLoop … endLoop block. */
  inLoop: boolean;
}

export interface Reading {
  calls: Call[];
  /** Each assigned name and the lines that assign it. */
  assigned: Map<string, number[]>;
}

const IDENT = /^[A-Za-z_]\w*$/;

/** The word a literal argument stands for: `"city"`, `'city'` → city; anything else → undefined. */
export function quotedWord(arg: string): string | undefined {
  const m = /^"([A-Za-z_]\w*)"$|^'([A-Za-z_]\w*)'$/.exec(arg);
  return m ? (m[1] ?? m[2]) : undefined;
}

function paramsFor(command: string, argCount: number): readonly catalogue.ParamSpec[] | undefined {
  const spec = catalogue.findCommand(command);
  if (!spec) return undefined;
  if (spec.altParams && spec.altParams.length === argCount && spec.params.length !== argCount) return spec.altParams;
  return spec.params;
}

/** The parameters of a call, paired with its arguments (undefined for a name that is not a catalogue command). */
export function parameters(call: Call): { param: catalogue.ParamSpec; arg: string }[] | undefined {
  const params = paramsFor(call.command, call.args.length);
  if (!params) return undefined;
  return params.flatMap((param, i) => (i < call.args.length ? [{ param, arg: call.args[i] as string }] : []));
}

/** Reads the calls and assignments of a program, line by line. */
export function readProgram(code: string): Reading {
  const calls: Call[] = [];
  const assigned = new Map<string, number[]>();
  const assign = (name: string, line: number): void => {
    if (!IDENT.test(name)) return;
    const lines = assigned.get(name) ?? [];
    lines.push(line);
    assigned.set(name, lines);
  };
  let loops = 0;
  code.split('\n').forEach((raw, line) => {
    const text = raw.trim();
    const fn = /^function\s+[A-Za-z_]\w*\s*\(([^)]*)\)/.exec(text);
    if (fn) {
      for (const p of (fn[1] ?? '').split(',')) assign(p.trim(), line);
      return;
    }
    let body = text;
    const assignment = /^([A-Za-z_]\w*)\s*=(?!=)\s*(.*)$/.exec(text);
    if (assignment) {
      assign(assignment[1] as string, line);
      body = assignment[2] as string;
    }
    const call = /^([A-Za-z_]\w*)\s*\((.*)\)\s*(\/\/.*)?$/.exec(body);
    if (call) {
      const command = call[1] as string;
      const args = splitArguments(call[2] as string);
      const entry: Call = { line, command, args, inLoop: loops > 0 };
      calls.push(entry);
      for (const { param, arg } of parameters(entry) ?? []) {
        if (param.kind === 'target') assign(quotedWord(arg) ?? arg, line);
      }
    }
    if (/^startLoop\s*\(/.test(text)) loops++;
    if (/^endLoop\s*\(/.test(text)) loops = Math.max(0, loops - 1);
  });
  return { calls, assigned };
}

/** The names addParam stores request parameters in. */
export function parameterTargets(reading: Reading): Set<string> {
  const names = new Set<string>();
  for (const call of reading.calls) {
    if (call.command !== 'addParam') continue;
    const target = call.args[1];
    if (target && IDENT.test(target)) names.add(target);
  }
  return names;
}
