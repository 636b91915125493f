/**
 * What the knowledge base says must stay sourced: the advice the
 * reference implementation contradicted does not come back, every observation
 * a document cites is recorded in the repository (docs/facts/reference, script
 * and answer), and examples that state an outcome state it in one precise,
 * machine-readable line, ready to be executed by the project's runtime.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadDocs, loadExamplePool, loadGoldenSet } from '../../../src/knowledge';
import { repoKnowledgeDir, unwrap } from './helpers';
import { outcomes } from './outcomes';
import { readProgram } from './programs';

const FACTS_DIR = path.resolve(repoKnowledgeDir(), '..', 'docs', 'facts', 'reference');

interface Text {
  where: string;
  text: string;
}

/** Every piece of prose the knowledge base shows: document bodies, pool descriptions, golden answers. */
function knowledgeTexts(): Text[] {
  const dir = repoKnowledgeDir();
  const texts: Text[] = unwrap(loadDocs(dir)).map((d) => ({ where: d.sourceDoc, text: d.body }));
  for (const e of unwrap(loadExamplePool(dir)).examples) texts.push({ where: `pool ${e.id}`, text: e.description });
  for (const e of unwrap(loadGoldenSet(dir)).entries) texts.push({ where: `golden ${e.id}`, text: e.referenceAnswer });
  return texts;
}

/** Sentences (and table cells) of a text. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+|\s\|\s/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A sentence that teaches quoting as a protection: it speaks of quoting and of keeping something
 * literal (or protecting it) without any negation. Quotes are stripped before a command sees its
 * argument (fact kb-quoted-word-names-variable), so no such sentence is true.
 */
function teachesQuotingAsProtection(sentence: string): boolean {
  if (!/\bquot(e|es|ed|ing)\b/i.test(sentence)) return false;
  const imperative =
    /\bquote (every |all |the |a |any )?(literal )?(keys?|key names?|column names?|names?|parameter names?|text|words?)\b/i;
  const keepsLiteral =
    /\b(stays? literal|keeps? (it |them |the \w+ )?literal|stays? quoted|with the (literal )?keys? quoted|quoted literal keys|taken literally|protects? (it|them|the))\b/i;
  const negated = /\b(not|no|nothing|never|neither|only|without|n't)\b/i;
  return (imperative.test(sentence) || keepsLiteral.test(sentence)) && !negated.test(sentence);
}

/**
 * Claims the sources contradict or do not support; none may come back. The second pattern lets
 * through a sentence that reports the matter as open (`whether every match is replaced … is not documented`).
 */
const CONTRADICTED: [string, RegExp, RegExp?][] = [
  [
    'commands cannot be nested (the reference implementation runs a call inside an argument)',
    /commands cannot be nested/i,
  ],
  ["bounds must be plain values, stated as the language (it is this parser's rule)", /bounds must be plain values/i],
  [
    'every match is replaced (not documented)',
    /every match is replaced|replaces \*\*every\*\* match|substitutes every match/i,
    /whether|not documented|does not (say|state)|unverified|assum|written for/i,
  ],
  ['"without protection the request stops with an error" (unsourced wording)', /without protection the request stops/i],
  ['\\s as the way to replace only spaces', /to replace only spaces/i],
  [
    '"any other statement" storing Success: N (only DML is documented)',
    /any other statement stores|other statements store a/i,
  ],
  [
    '$name as the way to read a global (the reference implementation does not resolve it)',
    /prefix it with `\$`|a global is read with the \$ prefix/i,
  ],
  ['a local scope that disappears on return, stated as fact', /variables it creates disappear when it returns/i],
];

describe('knowledge: sourced claims, recorded facts and stated outcomes', () => {
  const texts = knowledgeTexts();
  const docs = unwrap(loadDocs(repoKnowledgeDir()));

  it('teaches nowhere that quoting a word keeps it literal', () => {
    const found = texts.flatMap((t) =>
      sentences(t.text)
        .filter(teachesQuotingAsProtection)
        .map((s) => `${t.where}: ${s}`),
    );
    assert.deepEqual(found, []);
  });

  it('the quoting check catches the advice it guards against, and lets the true advice through', () => {
    for (const old of [
      'Quote literal text whenever a variable of the same name could exist, and always quote literal JSON keys.',
      'The rule to follow: **quote every literal key** (`"address"`, `"count"`).',
      'Quote the column name: in `variableFromJSON(row, email, email)` the bare key would be resolved.',
      'Read parameters at the top of the program, or quote the name (`addParam("page", page)`).',
      'Put one object inside another (the keys stay quoted, the values are variables):',
    ])
      assert.ok(teachesQuotingAsProtection(old), old);
    for (const fine of [
      'Quotes do not keep the key literal: the reference implementation removes them.',
      "Quoted keys are this knowledge base's habit for readability only.",
      'Quoting the name does not help in either reading.',
    ])
      assert.ok(!teachesQuotingAsProtection(fine), fine);
  });

  for (const [name, pattern, open] of CONTRADICTED) {
    it(`does not claim: ${name}`, () => {
      const found = texts.flatMap((t) =>
        sentences(t.text)
          .filter((s) => pattern.test(s) && !(open?.test(s) ?? false))
          .map((s) => `${t.where}: ${s}`),
      );
      assert.deepEqual(found, []);
    });
  }

  it('records every cited fact in docs/facts/reference, as a script and its answer', () => {
    const cited = new Set(texts.flatMap((t) => [...t.text.matchAll(/`(kb-[a-z0-9-]+)`/g)].map((m) => m[1] as string)));
    assert.ok(cited.size >= 25, `only ${cited.size} facts cited`);
    for (const fact of cited) {
      assert.ok(existsSync(path.join(FACTS_DIR, `${fact}.avap`)), `${fact}.avap is missing`);
      assert.ok(existsSync(path.join(FACTS_DIR, `${fact}.json`)), `${fact}.json is missing`);
    }
  });

  it('cites every kb- fact it recorded, and each fact has the agreed shape', () => {
    const files = readdirSync(FACTS_DIR).filter((f) => f.startsWith('kb-'));
    const scripts = files.filter((f) => f.endsWith('.avap')).map((f) => f.slice(0, -5));
    const answers = files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
    assert.deepEqual(scripts.sort(), answers.sort(), 'every kb- script has its answer and the other way round');
    const all = texts.map((t) => t.text).join('\n');
    for (const slug of scripts) {
      assert.ok(all.includes(`\`${slug}\``), `${slug} is recorded but cited nowhere`);
      const fact = JSON.parse(readFileSync(path.join(FACTS_DIR, `${slug}.json`), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(
        Object.keys(fact).sort(),
        ['claim', 'http_status', 'interpreter', 'mode', 'observed', 'query', 'response', 'variables'],
        slug,
      );
      assert.ok(typeof fact.claim === 'string' && fact.claim.length > 20, `${slug}: claim`);
      assert.equal(fact.mode, 'sql', `${slug}: mode`);
      assert.equal(typeof fact.query, 'string', `${slug}: query`);
      assert.ok(fact.variables && typeof fact.variables === 'object', `${slug}: variables`);
      assert.match(String(fact.observed), /^\d{4}-\d{2}-\d{2}$/, `${slug}: observed`);
      assert.match(String(fact.interpreter), /^AVAP_Lite_oss [0-9a-f]{7} \(LITE_MODE=sql\)$/, `${slug}: interpreter`);
      const response = fact.response as { success?: boolean; result?: unknown; error?: unknown; logs?: object[] };
      assert.equal(typeof fact.http_status, 'number', `${slug}: http_status`);
      if (response.success) {
        assert.ok(
          (fact.http_status as number) < 400 && response.result !== undefined,
          `${slug}: a success has a result`,
        );
        for (const entry of response.logs ?? [])
          assert.ok(!('duration_ms' in entry), `${slug}: logs keep no durations`);
      } else {
        assert.ok(
          (fact.http_status as number) >= 400 && typeof response.error === 'string',
          `${slug}: a failure has an error`,
        );
      }
      assert.ok(readFileSync(path.join(FACTS_DIR, `${slug}.avap`), 'utf8').trim().length > 0, `${slug}: empty script`);
    }
  });

  it('states outcomes in the agreed one-line form, after the example they describe', () => {
    const all = docs.map(outcomes);
    assert.deepEqual(
      all.flatMap((o) => o.malformed),
      [],
    );
    assert.ok(all.flatMap((o) => o.found).length >= 40, 'too few examples state their outcome');
  });

  it('an outcome only names results the example adds, and a status the example can produce', () => {
    for (const o of docs.flatMap((d) => outcomes(d).found)) {
      const added = new Set(
        readProgram(o.code)
          .calls.filter((c) => c.command === 'addResult')
          .map((c) => c.args[0]),
      );
      for (const key of Object.keys(o.result)) assert.ok(added.has(key), `${o.where}: ${key} is never added`);
      if (o.status !== 200)
        assert.ok(o.code.includes(`_status = ${o.status}`), `${o.where}: nothing sets status ${o.status}`);
    }
  });

  it("names this project's parser wherever a document says something is rejected or refused", () => {
    const found = docs.flatMap((d) =>
      sentences(d.body)
        .filter((s) =>
          /\b(rejects|refuses|is rejected|are rejected|is not accepted|accepted with a warning|accepts it with a warning)\b/i.test(
            s,
          ),
        )
        .filter((s) => !/parser/i.test(s))
        .map((s) => `${d.sourceDoc}: ${s}`),
    );
    assert.deepEqual(found, []);
  });
});
