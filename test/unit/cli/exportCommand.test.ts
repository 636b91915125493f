import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// internal-import: the CLI has no library entry; runCli is what its main calls, run here in-process
import { runCli } from '../../../src/cli/run';
import { SignalStore, type NewSignal } from '../../../src/signals';

async function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readStdin: () => Promise.resolve({ bytes: Buffer.alloc(0), over: false }),
    env,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

const signal = (id: string, composite: number | null): NewSignal => ({
  id,
  signal_type: 'retrieval',
  source: 'eval',
  input: {
    query: `question ${id}`,
    context: [{ id: 'c', title: 'encodeSHA256', text: 'encodeSHA256(source, target)' }],
  },
  output: { text: 'Use `encodeSHA256(a, b)`.', code: '', validation_status: '', attempts: 1 },
  automated: {
    score:
      composite === null
        ? null
        : {
            validator: 'llm-judge',
            composite,
            threshold: 0.6,
            passed: composite >= 0.6,
            dimensions: { grounding: composite },
          },
    history: [],
    failure: null,
    parser: [],
  },
  model: { name: 'qwen3:1.7b' },
});

describe('cli export', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'avap-export-'));
    file = path.join(dir, 'signals.jsonl');
    const store = new SignalStore(file);
    await store.recordSignal(signal('s1', 0.9));
    await store.recordSignal(signal('s2', 0.2));
    await store.recordSignal(signal('s3', null));
    await store.recordFeedback('s2', 'down', 'editor');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one folded signal per line and a summary on stderr', async () => {
    const run = await cli(['export', file]);
    assert.equal(run.code, 0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; feedback: { thumbs: string } | null; used_for_training: boolean });
    assert.deepEqual(
      lines.map((l) => l.id),
      ['s1', 's2', 's3'],
    );
    assert.equal(lines[1]?.feedback?.thumbs, 'down');
    assert.ok(lines.every((l) => l.used_for_training === false));
    assert.equal(run.stderr, 'avap export: 3 of 3 signals exported\n');
  });

  it('filters, adds features, writes to a file and marks what it exported', async () => {
    const out = path.join(dir, 'train.jsonl');
    const run = await cli(['export', '--min-score', '0.5', '--features', '--mark', '--label', 'v1', '--out', out], {
      AVAP_SIGNALS_FILE: file,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; features: Record<string, number> });
    assert.deepEqual(
      lines.map((l) => l.id),
      ['s1'],
    );
    assert.equal(lines[0]?.features.commands_named, 0.2);
    assert.match(
      run.stderr,
      /1 of 3 signals exported\navap export: marked 1 signals as used for training \(batch [0-9a-f-]{36}\)\n$/,
    );
    const unused = await cli(['export', '--unused', file]);
    assert.deepEqual(
      unused.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
      ['s2', 's3'],
    );
    const record = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { record: string; label?: string })
      .pop();
    assert.deepEqual([record?.record, record?.label], ['training', 'v1']);
  });

  it('--mark --batch ID: the exported lines and the store carry the training batch; every line has its reward', async () => {
    const run = await cli(['export', '--feedback', 'down', '--mark', '--batch', 'rl-2026-11-23', file]);
    assert.equal(run.code, 0, run.stderr);
    const [line] = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual([line?.id, line?.used_for_training, line?.training_batch_id], ['s2', true, 'rl-2026-11-23']);
    // s2: judge composite 0.2, thumbs down 0 → (0.3 · 0.2 + 0.4 · 0) / 0.7.
    assert.deepEqual(
      [line?.reward_version, line?.computed_reward, line?.reward_components],
      [1, 0.0857, { automated: 0.2, human_feedback: 0, outcome: null }],
    );
    assert.match(run.stderr, /marked 1 signals as used for training \(batch rl-2026-11-23\)\n$/);

    const all = await cli(['export', file]);
    const folded = all.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            id: string;
            training_batch_id: string | null;
            computed_reward: number | null;
            feedback: { score: number } | null;
          },
      );
    assert.deepEqual(
      folded.map((s) => [s.id, s.training_batch_id, s.computed_reward]),
      [
        ['s1', null, 0.9],
        ['s2', 'rl-2026-11-23', 0.0857],
        ['s3', null, null],
      ],
    );
    assert.equal(folded[1]?.feedback?.score, 0, 'human feedback stored as a score as well as a label');
  });

  it('--batch goes with --mark and must be a single word', async () => {
    const alone = await cli(['export', '--batch', 'b1', file]);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--batch goes with --mark/);
    const spaced = await cli(['export', '--mark', '--batch', 'two words', file]);
    assert.equal(spaced.code, 2);
    assert.match(spaced.stderr, /--batch must be 1 to 200 characters without spaces/);
  });

  it('reports skipped and torn lines', async () => {
    appendFileSync(file, 'garbage\n{"record":"sig');
    const run = await cli(['export', '--feedback', 'down', file]);
    assert.equal(run.code, 0);
    assert.equal(
      run.stderr,
      'avap export: 1 of 3 signals exported; 1 malformed line skipped (line 5); a torn last line skipped\n',
    );
  });

  const usage: { args: string[]; message: RegExp }[] = [
    { args: ['export'], message: /no signals file given/ },
    { args: ['export', '--min-score', '2', 'f'], message: /--min-score must be a number between 0 and 1, got '2'/ },
    {
      args: ['export', '--type', 'retrieval,chat', 'f'],
      message: /--type must be one of code_generation, retrieval, conversational, platform, tool_call, got 'chat'/,
    },
    { args: ['export', '--feedback', 'meh', 'f'], message: /--feedback must be one of up, down, any, none/ },
    { args: ['export', '--since', 'yesterday', 'f'], message: /--since must be an ISO date/ },
    { args: ['export', '--label', 'x', 'f'], message: /--label goes with --mark/ },
    { args: ['export', '--bogus', 'f'], message: /Unknown option '--bogus'/ },
  ];
  for (const u of usage) {
    it(`usage error: ${u.args.slice(1).join(' ') || '(nothing)'}`, async () => {
      const run = await cli(u.args, {});
      assert.equal(run.code, 2);
      assert.match(run.stderr, u.message);
      assert.match(run.stderr, /Usage: node dist\/cli\.js export/);
    });
  }

  it('an unreadable store is exit 2 with the reason', async () => {
    const run = await cli(['export', path.join(dir, 'missing.jsonl')]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot read .*missing\.jsonl: ENOENT/);
  });
});
