/**
 * Functional correctness end to end: the built CLI's
 * `eval` over real sockets — the scripted Ollama-compatible server the suite
 * starts, the real bundled parser, and the runtime's worker pool with its
 * embedded PostgreSQL — scores each code answer by running it against its
 * golden question's cases:
 *
 *   GD-C-013  a right program (insert a username; 201, or 409 when taken): its
 *             cases pass in every run, which also shows each run gets a fresh
 *             database (run 2 inserts the same "new" username again)
 *   GD-C-003  a valid but wrong program (18 is a minor): the boundary case fails
 *   GD-C-014  invalid code twice (an invented command): fails without running
 *
 * so functional_correctness is 1/3 in each of the two runs.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliProcess } from '../../support/dist';
import {
  lastUser,
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../../support/scriptedOllama';

/** Per question (a word of its text): the first answer and the answer to the retry with the parser's trace. */
const PROGRAMS: Record<string, [string, string]> = {
  accounts: [
    [
      'addParam(username, newUser)',
      'addVar(inserted, "no")',
      'try()',
      "  ormDirect(`INSERT INTO accounts (username) VALUES ('${newUser}')`, inserted)",
      'exception(failure)',
      'end()',
      'if(inserted, "no", =)',
      '  _status = 409',
      '  addVar(message, "that username is taken")',
      '  addResult(message)',
      'else()',
      '  _status = 201',
      '  addResult(inserted)',
      'end()',
    ].join('\n'),
    '',
  ],
  adult: [
    'addParam(age, years)\nif(years, 18, >)\n  addVar(label, "adult")\nelse()\n  addVar(label, "minor")\nend()\naddResult(label)',
    '',
  ],
  phone: ['let digits = keepDigits(phone)\naddResult(digits)', 'digits = keepDigits(phone)\naddResult(digits)'],
};

function reply(request: RecordedRequest): { content: string } {
  const system = systemPrompt(request);
  const user = lastUser(request);
  const messages = request.body.messages ?? [];
  const question = messages.find((m) => m.role === 'user')?.content ?? '';
  if (system.startsWith('AVAP Assistant — query classifier.'))
    return { content: JSON.stringify({ type: 'CODE_GENERATION' }) };
  if (system.startsWith('AVAP Assistant — search query writer.')) return { content: user.split('\n').at(-1) ?? user };
  if (system.startsWith('AVAP Assistant — context relevance judge.')) return { content: 'YES' };
  if (system.startsWith('AVAP Assistant — AVAP code writer.')) {
    const [first, retry] = Object.entries(PROGRAMS).find(([word]) => question.includes(word))?.[1] ?? ['', ''];
    const again = messages.some((m) => m.role === 'assistant');
    return { content: `Here is the program:\n\n\`\`\`avap\n${again ? retry : first}\n\`\`\`` };
  }
  return { content: 'unscripted' };
}

interface Report {
  runs: { functionalChecked: number; functionalPassed: number; functional_correctness: number | null }[];
  functional_correctness: { mean: number | null; std: number | null; n: number };
  syntactic_validity: { mean: number | null };
  entries: {
    id: string;
    run: number;
    valid: boolean | null;
    functional: {
      passed: boolean;
      skipped?: string;
      cases: { name: string; passed: boolean; failures: string[] }[];
    } | null;
  }[];
}

describe('eval: functional correctness over real sockets (scripted model, bundled parser, runtime pool)', function () {
  this.timeout(120_000);
  let ollama: ScriptedOllama;
  let out: string;
  let report: Report;
  let stderr: string;

  before(async () => {
    ollama = await startScriptedOllama();
    ollama.on({ endpoint: 'chat' }, reply);
    out = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-functional-'));
    const run = await runCliProcess(
      [
        'eval',
        '--runs',
        '2',
        '--only',
        'GD-C-013,GD-C-003,GD-C-014',
        '--model',
        'scripted:1',
        '--embedding-model',
        'scripted-embed:1',
        '--ollama-url',
        ollama.url,
        '--no-judge',
        '--out',
        out,
      ],
      {
        env: { EVAL_SEED: '7', AVAP_PARSER_URL: undefined, OLLAMA_HOST: undefined, AVAP_CACHE_DIR: out },
        killAfterMs: 110_000,
      },
    );
    stderr = run.stderr;
    assert.equal(run.code, 0, run.stderr);
    report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Report;
  });
  after(async () => {
    rmSync(out, { recursive: true, force: true });
    await ollama.close();
  });

  it('scores 1 of 3 answers in each run, mean 1/3 and deviation 0 over the two runs', () => {
    assert.deepEqual(
      report.runs.map((r) => [r.functionalPassed, r.functionalChecked, r.functional_correctness]),
      [
        [1, 3, 0.3333],
        [1, 3, 0.3333],
      ],
    );
    assert.deepEqual(report.functional_correctness, { mean: 0.3333, std: 0, n: 2 });
    assert.match(stderr, /^run 2: syntactic_validity 0\.6667 \(2\/3\), functional_correctness 0\.3333 \(1\/3\)/m);
  });

  it('the right program passes in both runs: each run of each case starts from a fresh database', () => {
    const right = report.entries.filter((e) => e.id === 'GD-C-013');
    assert.equal(right.length, 2);
    for (const e of right) {
      assert.deepEqual(
        e.functional?.cases.map((c) => [c.name, c.passed, c.failures]),
        [
          ['a new username', true, []],
          ['a username already taken', true, []],
        ],
      );
    }
  });

  it('the valid but wrong program fails its boundary case; invalid code fails without running', () => {
    for (const e of report.entries.filter((x) => x.id === 'GD-C-003')) {
      assert.equal(e.valid, true);
      assert.equal(e.functional?.passed, false);
      assert.deepEqual(
        e.functional?.cases.filter((c) => !c.passed).map((c) => [c.name, c.failures]),
        [['exactly 18', ['result.label: expected "adult", got "minor"']]],
      );
    }
    for (const e of report.entries.filter((x) => x.id === 'GD-C-014')) {
      assert.equal(e.valid, false);
      assert.deepEqual(e.functional, { passed: false, skipped: 'invalid-code', cases: [] });
    }
  });

  it('shows the figure in report.md and report.html', () => {
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    assert.match(
      md,
      /\| functional_correctness \(every case passes in the runtime; invalid or missing code fails\) \| 33\.3 % ± 0\.0 \|/,
    );
    assert.match(md, /\| GD-C-013 \| 2\/2 \| — \|/);
    assert.match(md, /\| GD-C-014 \| 0\/2 \| the code fails the parser \|/);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    assert.match(
      html,
      /<td>functional_correctness \(every case passes in the runtime; invalid or missing code fails\)<\/td><td>33\.3 % ± 0\.0<\/td>/,
    );
  });
});
