/**
 * Pins the knowledge base's fixes for code that parses but does something
 * else at run time (docs/semantics.md, docs/facts/reference). These are line checks over every
 * program the knowledge base teaches (document blocks, pool examples, golden
 * reference code), on top of the parser's semantic warnings (which every such
 * program must not draw either: docs, pool and golden tests require silence).
 *
 * Then what the reference implementation showed (the facts in
 * docs/facts/reference): quotes do not keep a word literal, so no key or
 * literal word may be the name of a variable of its program; and the programs
 * avoid the behaviours where the specification and the reference
 * implementation disagree (blank arguments, a variable as if's right operand,
 * numeric request parameters used raw, the expression form of if, `$`
 * globals, a lone built-in call, `=` inside an argument), or name them.
 */
import assert from 'node:assert/strict';
import { catalogue } from '../../../src/parser';
import { loadExamplePool } from '../../../src/knowledge';
import { repoKnowledgeDir, unwrap } from './helpers';
import {
  knowledgePrograms,
  parameterTargets,
  parameters,
  quotedWord,
  readProgram,
  splitArguments,
  withoutStrings,
  type Program,
} from './programs';

/** Lines of every program that match `pattern`, as "where: line". */
function offending(programs: readonly Program[], pattern: RegExp): string[] {
  return programs.flatMap((p) =>
    p.code
      .split('\n')
      .filter((line) => pattern.test(line))
      .map((line) => `${p.where}: ${line.trim()}`),
  );
}

const BARE = String.raw`[A-Za-z_]\w*`;
const RULES: [string, RegExp][] = [
  // Spec addVar rule 4: anything that is not a variable or a number is stored as text.
  [
    'addVar with [], {}, None or a boolean (stored as text; use x = [] …)',
    /^\s*addVar\(\s*[A-Za-z_]\w*\s*,\s*(\[\s*\]|\{\s*\}|None|True|False|true|false)\s*\)/,
  ],
  // The knowledge base writes literal keys in quotes so readers see text; the quotes do not protect them
  // (see the collision check below, which is the rule that does).
  [
    'AddvariableToJSON with a bare key (literal keys are written quoted, for readers)',
    new RegExp(String.raw`^\s*AddvariableToJSON\(\s*${BARE}\s*,`),
  ],
  [
    'variableFromJSON with a bare key (literal keys are written quoted, for readers)',
    new RegExp(String.raw`^\s*(${BARE}\s*=\s*)?variableFromJSON\([^,]*,\s*${BARE}\s*,`),
  ],
  ['typographic quotes (not AVAP quotes)', /[\u201C\u201D\u2018\u2019]/],
];

/** Arguments that name a list of variables by design (ormAccessInsert/Update's value variables). */
const NAMES_VARIABLES_BY_DESIGN = new Set(['fieldsValuesVariables']);

/**
 * Keys and literal words that are the name of a variable of the same program. The reference
 * implementation strips quotes, so `"city"` stands for a variable `city` when one exists (fact
 * kb-quoted-word-names-variable); the specification resolves keys and `value` arguments too. The
 * one harmless case: a key read into a target of the same name on the same line, outside a loop
 * (`addParam(email, email)`), since the key is read before the target exists.
 */
function collisions(program: Program): string[] {
  const reading = readProgram(program.code);
  const found: string[] = [];
  for (const call of reading.calls) {
    const pairs = parameters(call);
    if (!pairs) continue;
    pairs.forEach(({ param, arg }, index) => {
      if (param.kind === 'target' || NAMES_VARIABLES_BY_DESIGN.has(param.name)) return;
      const isIfRight = call.command === 'if' && index === 1;
      const word =
        quotedWord(arg) ?? (param.key || isIfRight ? (/^[A-Za-z_]\w*$/.exec(arg)?.[0] ?? undefined) : undefined);
      if (!word || ['None', 'True', 'False'].includes(word)) return;
      const lines = reading.assigned.get(word);
      if (!lines) return;
      const sameLineOnly = !call.inLoop && lines.every((l) => l === call.line);
      if (!sameLineOnly)
        found.push(`${program.where}: ${call.command}(${call.args.join(', ')}) — '${word}' names a variable`);
    });
  }
  return found;
}

/** Blank arguments (`f(a, , b)`): the specification keeps their place, the reference implementation drops them. */
function blankArguments(program: Program): string[] {
  return readProgram(program.code)
    .calls.filter((c) => c.args.length > 1 && c.args.some((a) => a === ''))
    .map((c) => `${program.where}: ${c.command}(${c.args.join(', ')})`);
}

/**
 * Assignments the reference implementation runs as a command call: the right side holds a `(`, ends with
 * `)` and has none of + - * / (its own test), while the text before the first `(` is neither a catalogue
 * command, nor a function of the program, nor a connector method (`db.query(…)`): `n = len(items)`,
 * `s = str(x)`, `q = "… %s" % (a, b)` (facts kb-builtin-call-alone-is-command, kb-format-tuple-alone-is-command).
 */
function loneCalls(program: Program): string[] {
  const functions = new Set([...program.code.matchAll(/^\s*function\s+([A-Za-z_]\w*)/gm)].map((m) => m[1] as string));
  return program.code.split('\n').flatMap((raw) => {
    const m = /^\s*[A-Za-z_]\w*\s*=(?!=)\s*(.*?)\s*$/.exec(raw);
    const rhs = m?.[1] ?? '';
    if (!rhs.includes('(') || !rhs.endsWith(')') || /[-+*/]/.test(rhs)) return [];
    const name = rhs.slice(0, rhs.indexOf('(')).trim();
    if (catalogue.findCommand(name) || functions.has(name) || /^[A-Za-z_]\w*(\[[^\]]*\])?\.[A-Za-z_]\w*$/.test(name))
      return [];
    return [`${program.where}: ${raw.trim()}`];
  });
}

/** Commands the reference implementation runs; on those lines a `=` inside an argument turns the line into an assignment. */
const REFERENCE_COMMANDS = /^\s*(addVar|addParam|addResult|RequestGet|RequestPost|exception)\s*\(/;

/** A request parameter used raw where its type matters (arithmetic, ordering, concatenation, text commands, len). */
function rawParameters(program: Program): string[] {
  const reading = readProgram(program.code);
  const params = parameterTargets(reading);
  const found: string[] = [];
  const lines = program.code.split('\n');
  for (const name of params) {
    const word = new RegExp(String.raw`(?<![\w.$])${name}(?!\w)`, 'g');
    lines.forEach((raw, i) => {
      const text = raw.trim();
      const assignment = /^[A-Za-z_]\w*\s*=(?!=)\s*(.*)$/.exec(text);
      if (!assignment) return;
      const rhs = withoutStrings(assignment[1] as string);
      for (const m of rhs.matchAll(word)) {
        const before = rhs.slice(0, m.index).trimEnd();
        const after = rhs.slice((m.index ?? 0) + name.length).trimStart();
        if (/(int|float|str|len)\s*\($/.test(before)) continue;
        if (/([-+*/%<>]|<=|>=)$/.test(before) || /^([-+*/%<>]|<=|>=)/.test(after))
          found.push(`${program.where}:${i + 1}: ${text}`);
      }
    });
  }
  for (const call of reading.calls) {
    if (['replace', 'getRegex', 'encodeSHA256', 'encodeMD5'].includes(call.command) && params.has(call.args[0] ?? ''))
      found.push(`${program.where}:${call.line + 1}: ${call.command}(${call.args.join(', ')})`);
  }
  for (const [i, raw] of lines.entries()) {
    for (const m of raw.matchAll(/len\(\s*([A-Za-z_]\w*)\s*\)/g)) {
      if (params.has(m[1] as string)) found.push(`${program.where}:${i + 1}: ${raw.trim()}`);
    }
  }
  return found;
}

/** if(a, b, …) whose right operand is a variable of the program: the reference implementation compares with the text. */
function variableRightOperands(program: Program): string[] {
  const reading = readProgram(program.code);
  return reading.calls
    .filter((c) => c.command === 'if' && c.args[0] !== 'None')
    .filter((c) => {
      const right = quotedWord(c.args[1] ?? '') ?? c.args[1] ?? '';
      return /^[A-Za-z_]\w*$/.test(right) && !['None', 'True', 'False'].includes(right) && reading.assigned.has(right);
    })
    .map((c) => `${program.where}: if(${c.args.join(', ')})`);
}

/** The pool examples that show a form on purpose, with a description that names its caveat. */
const SHOWCASES: Record<string, { pattern: RegExp; caveat: RegExp }> = {
  'dates-tomorrow-epoch': { pattern: /\(\s*,|,\s*,/, caveat: /reference implementation drops blank arguments/ },
  'cond-expression-form': { pattern: /if\(\s*None\s*,\s*None\s*,/, caveat: /does not evaluate it/ },
  'func-global-read': { pattern: /\$[A-Za-z_]/, caveat: /does not resolve \$/ },
};

describe('knowledge: no program teaches a known run-time trap', () => {
  const programs = knowledgePrograms();
  const nonShowcase = programs.filter((p) => !Object.keys(SHOWCASES).some((id) => p.where === `pool ${id}`));

  it('reads every program of the knowledge base', () => {
    assert.ok(programs.length >= 390, `only ${programs.length} programs`);
  });

  for (const [name, pattern] of RULES) {
    it(`has no ${name}`, () => {
      assert.deepEqual(offending(programs, pattern), []);
    });
  }

  it('the checks are not vacuous: each rule catches the trap it names', () => {
    const traps: Program[] = [
      { where: 'a', code: 'addVar(rows, [])\n' },
      { where: 'b', code: '  addVar(done, True)\n' },
      { where: 'c', code: 'AddvariableToJSON(count, count, reply)\n' },
      { where: 'd', code: '  variableFromJSON(row, email, email)\n' },
      { where: 'e', code: 'addParam(\u201Cpassword\u201D, pwd)\n' },
    ];
    const fine: Program[] = [
      {
        where: 'f',
        code: 'rows = []\naddVar(total, 0)\naddVar(label, "None")\nAddvariableToJSON("count", rowCount, reply)\n',
      },
      { where: 'g', code: 'AddvariableToJSON(`${s}`, n, counts)\nvariableFromJSON(row, "email", address)\n' },
    ];
    for (const [name, pattern] of RULES) {
      assert.ok(offending(traps, pattern).length >= 1, `${name}: catches nothing`);
      assert.deepEqual(offending(fine, pattern), [], `${name}: flags correct code`);
    }
  });

  it('no key or literal word is the name of a variable of its program, quoted or not', () => {
    assert.deepEqual(programs.flatMap(collisions), []);
  });

  it('the collision check catches quoted and bare collisions and lets distinct names through', () => {
    const traps: Program[] = [
      { where: 'quoted key', code: 'addParam(name, name)\nAddvariableToJSON("name", name, profile)\n' },
      { where: 'loop key', code: 'startLoop(i, 0, 2)\n  variableFromJSON(row, "email", email)\nendLoop()\n' },
      { where: 'literal word', code: 'addVar(active, "yes")\naddVar(state, "active")\n' },
      { where: 'param name', code: 'addVar(zip, 1)\naddParam(zip, zipCode)\n' },
      { where: 'if word', code: 'addVar(premium, 1)\nif(plan, "premium", =)\nend()\n' },
    ];
    for (const t of traps) assert.ok(collisions(t).length >= 1, `${t.where}: not caught`);
    const fine: Program[] = [
      { where: 'distinct', code: 'addParam(name, customerName)\nAddvariableToJSON("name", customerName, profile)\n' },
      { where: 'same line', code: 'addParam(email, email)\nvariableFromJSON(reply, "city", city)\n' },
      { where: 'value list', code: 'addParam(email, newEmail)\normAccessUpdate("email", "newEmail", "t", done, w)\n' },
    ];
    for (const f of fine) assert.deepEqual(collisions(f), [], `${f.where}: flagged`);
  });

  it('writes unused arguments as "" instead of leaving them blank (only the showcase keeps them blank)', () => {
    assert.deepEqual(nonShowcase.flatMap(blankArguments), []);
    assert.ok(blankArguments({ where: 'x', code: 'RequestGet(url, , , r)\n' }).length === 1);
    assert.deepEqual(blankArguments({ where: 'y', code: 'RequestGet(url, "", "", r)\nexception()\n' }), []);
  });

  it('keeps the right operand of if a literal (the reference implementation does not look it up)', () => {
    assert.deepEqual(programs.flatMap(variableRightOperands), []);
    assert.equal(
      variableRightOperands({ where: 'x', code: 'addVar(limit, 3)\nif(total, limit, >)\nend()\n' }).length,
      1,
    );
    assert.deepEqual(variableRightOperands({ where: 'y', code: 'addVar(limit, 3)\nif(excess, 0, >)\nend()\n' }), []);
  });

  it('converts request parameters where their type matters (int()/float() in expressions, "" + str() before text commands)', () => {
    assert.deepEqual(programs.flatMap(rawParameters), []);
    const traps = [
      'addParam(qty, q)\ntotal = q * 2\n',
      'addParam(name, n)\ngreeting = "Hi " + n\n',
      'addParam(phone, p)\nreplace(p, [^0-9], "", digits)\n',
      'addParam(nick, n)\nsize = len(n) + 0\n',
    ];
    for (const code of traps) assert.ok(rawParameters({ where: 't', code }).length >= 1, code);
    const fine =
      'addParam(qty, q)\ntotal = int(q) * 2\naddParam(phone, p)\npt = "" + str(p)\nreplace(pt, [^0-9], "", d)\nok = q == None\n';
    assert.deepEqual(rawParameters({ where: 'f', code: fine }), []);
  });

  it('never writes an assignment the reference implementation would run as a command call (a lone built-in, a % tuple)', () => {
    assert.deepEqual(programs.flatMap(loneCalls), []);
    for (const code of ['n = len(items)\n', 's = str(x)\n', 'q = "a %s b %s" % (x, y)\n'])
      assert.equal(loneCalls({ where: 't', code }).length, 1, code);
    const fine =
      'last = len(items) - 1\nw = int(c / 100)\nrows = db.query("SELECT 1")\ntotal = f(2)\nfunction f(a) {\n  return(a)\n}\nx = getDateTime(a)\n';
    assert.deepEqual(loneCalls({ where: 'f', code: fine }), []);
  });

  it('never puts "=" inside an argument of a command the reference implementation runs (it reads such a line as an assignment)', () => {
    const found = programs.flatMap((p) =>
      p.code
        .split('\n')
        .filter((l) => REFERENCE_COMMANDS.test(l) && /=/.test(l.slice(l.indexOf('('))))
        .map((l) => `${p.where}: ${l.trim()}`),
    );
    assert.deepEqual(found, []);
  });

  it('shows the expression form of if, $ globals and blank arguments only in one pool example each, whose description names the caveat', () => {
    for (const [name, pattern] of [
      ['expression form of if', SHOWCASES['cond-expression-form']?.pattern],
      ['$ global', SHOWCASES['func-global-read']?.pattern],
    ] as const) {
      const users = programs.filter((p) =>
        p.code.split('\n').some((l) => pattern?.test(withoutStrings(l)) || pattern?.test(l)),
      );
      assert.equal(users.length, 1, `${name}: ${users.map((u) => u.where).join(', ')}`);
    }
    const pool = unwrap(loadExamplePool(repoKnowledgeDir()));
    for (const [id, { pattern, caveat }] of Object.entries(SHOWCASES)) {
      const example = pool.examples.find((e) => e.id === id);
      assert.ok(example, `showcase ${id} is missing`);
      assert.ok(pattern.test(example.code), `${id} no longer shows the form`);
      assert.match(example.description, caveat, `${id}: the description does not name the caveat`);
    }
  });

  it('splits arguments at top-level commas only', () => {
    assert.deepEqual(splitArguments('a, "b, c", [1, 2], f(x, y), `t, ${u}`'), [
      'a',
      '"b, c"',
      '[1, 2]',
      'f(x, y)',
      '`t, ${u}`',
    ]);
  });
});
