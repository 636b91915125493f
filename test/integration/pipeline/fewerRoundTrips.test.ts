/**
 * Fewer LLM round trips, end to end over real sockets: the scripted Ollama over
 * HTTP, the real parser service over gRPC (behind the fault-injecting proxy).
 *
 * - Deterministic repair first: an answer whose every error has a proven fix
 *   is repaired by the parser's fixes, validated again by the service, and
 *   returned "" without a second generation; the parser dying during that
 *   re-validation never yields "".
 * - Early abort: a streamed answer with a foreign keyword on an early line is
 *   cut (the scripted server sees the client go away long before the end) and
 *   the trace-guided retry follows; the service gives the final verdict.
 */
import assert from 'node:assert/strict';
import type { ResponseMessage } from '../../../src/core';
import { LOG_REPAIRED_BY_FIXES } from '../../../src/core/code/repairAnswer';
import { LOG_EARLY_ABORT } from '../../../src/core/code/streamCheck';
import { lastUser } from '../../support/scriptedOllama';
import {
  FIXABLE_CODE,
  fenced,
  FOREIGN_EARLY_CODE,
  harness,
  pipelineHooks,
  scriptReformulate,
  task,
  VALID_CODE,
  type World,
} from './fixture';
import { prefixed } from '../../../src/core/ports';

describe('pipeline: fewer LLM round trips over real sockets', function () {
  let world: World;

  pipelineHooks((w) => {
    world = w;
  });

  it('an answer whose every error has a proven fix is repaired by the parser\'s fixes: "", one generation, the service validated the repair', async () => {
    const h = await harness(world);
    scriptReformulate(world.ollama);
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(FIXABLE_CODE) });
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(
      { query: 'hash the password', forceType: 'CODE_GENERATION' },
      { onMessage: (m) => messages.push(m) },
    );

    assert.equal(result.error, undefined);
    assert.equal(result.validationStatus, '');
    assert.equal(gen.used, 1, 'no LLM retry');
    assert.equal(result.retry?.usedBy, undefined);
    assert.equal(result.code, VALID_CODE);
    assert.equal(result.text, fenced(VALID_CODE), 'the fixes are applied to the answer the user sees');
    assert.equal(result.repair?.by, 'parser-fixes');
    // Two service calls: the model's answer, then the repaired one — the verdict on what is shown is the service's.
    assert.deepEqual(
      h.transport.calls.map((c) => c.source),
      [FIXABLE_CODE, VALID_CODE],
    );
    assert.deepEqual(messages.at(-1), {
      text: fenced(VALID_CODE),
      avap_code: VALID_CODE,
      is_final: true,
      validation_status: '',
      repaired_by: 'parser-fixes',
    });
    // The drafts end on the repaired answer: one replacing draft carries it whole.
    assert.deepEqual(
      messages.filter((m) => !m.is_final && m.replace),
      [{ text: fenced(VALID_CODE), avap_code: '', is_final: false, draft: true, attempt: 1, replace: true }],
    );
    assert.deepEqual(
      h.telemetry.events.map((e) => [e.verdict, e.final, e.repaired_by]),
      [
        ['invalid', false, undefined],
        ['valid', true, 'parser-fixes'],
      ],
    );
    assert.ok(h.logger.lines.some((l) => l.startsWith(prefixed(LOG_REPAIRED_BY_FIXES))));
  });

  it('the parser service dies during the re-validation: no validity claim (PARSER_UNAVAILABLE), never ""', async () => {
    const h = await harness(world);
    scriptReformulate(world.ollama);
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(FIXABLE_CODE) });
    // The first validation reaches the service; from then on the connection is reset.
    const call = h.transport.call.bind(h.transport);
    h.transport.call = async (source, filename, options) => {
      const answer = await call(source, filename, options);
      world.proxy.setMode('reset');
      return answer;
    };
    const result = await h.assistant.run({ query: 'hash the password', forceType: 'CODE_GENERATION' });

    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(result.repair, undefined);
    assert.equal(gen.used, 2, 'the trace-guided retry ran as before');
  });

  it('a foreign keyword streamed early stops the model and goes straight to the trace-guided retry; the service gives the verdict', async () => {
    const h = await harness(world);
    scriptReformulate(world.ollama);
    const first = world.ollama.on(
      { endpoint: 'chat', when: task('generate_code'), times: 1 },
      { content: fenced(FOREIGN_EARLY_CODE), chunkDelayMs: 5 },
    );
    const retry = world.ollama.on(
      { endpoint: 'chat', when: task('generate_code'), times: 1 },
      { content: fenced(VALID_CODE) },
    );
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(
      { query: 'hash the password', forceType: 'CODE_GENERATION' },
      { onMessage: (m) => messages.push(m) },
    );

    assert.equal(first.used, 1);
    assert.equal(retry.used, 1);
    const generations = world.ollama.calls('chat').filter(task('generate_code'));
    const cut = generations[0];
    assert.equal(cut?.clientClosed, true, 'the client went away mid-stream');
    assert.ok(
      (cut?.piecesSent ?? 0) < (cut?.piecesTotal ?? 0) / 2,
      `stopped early: ${cut?.piecesSent} of ${cut?.piecesTotal} pieces`,
    );
    assert.match(lastUser(generations[1] as NonNullable<typeof cut>), /foreign keyword 'print'/);
    assert.equal(result.validationStatus, '');
    assert.equal(result.code, VALID_CODE);
    assert.deepEqual(result.earlyAbort, { line: 4, rule: 'foreign-keyword', attempt: 1 });
    // Only the retry's answer went to the service: the aborted partial answer claims nothing.
    assert.deepEqual(
      h.transport.calls.map((c) => c.source),
      [VALID_CODE],
    );
    assert.equal(h.telemetry.events[0]?.early_abort?.rule, 'foreign-keyword');
    assert.ok(h.logger.lines.some((l) => l.startsWith(prefixed(LOG_EARLY_ABORT))));
    assert.deepEqual(messages.at(-1), {
      text: fenced(VALID_CODE),
      avap_code: VALID_CODE,
      is_final: true,
      validation_status: '',
    });
  });
});
