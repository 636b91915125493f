/**
 * CODE_GENERATION end to end over real sockets: the scripted Ollama over
 * HTTP, the real parser service over gRPC.
 */
import assert from 'node:assert/strict';
import type { ResponseMessage } from '../../../src/core';
import { CORRECTION_HEAD, CORRECTION_TAIL, correctionContext } from '../../../src/core/routing/prompts';
import { validateAvap } from '../../../src/parser';
import { lastUser } from '../../support/scriptedOllama';
import {
  fenced,
  harness,
  pipelineHooks,
  INVALID_CODE,
  PARTLY_FIXABLE_CODE,
  scriptReformulate,
  task,
  VALID_CODE,
  type Harness,
  type World,
} from './fixture';

describe('pipeline: code generation over real sockets', function () {
  let world: World;
  let h: Harness | undefined;

  pipelineHooks((w) => {
    world = w;
  });

  it('valid on the first attempt: status "", one generation, one parser call, streamed messages', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(
      { query: 'return the SHA-256 of the password parameter', forceType: 'CODE_GENERATION' },
      { onMessage: (m) => messages.push(m) },
    );

    assert.equal(result.error, undefined);
    assert.equal(result.queryType, 'CODE_GENERATION');
    assert.equal(result.classification, 'forced');
    assert.equal(result.validationStatus, '');
    assert.equal(result.code, VALID_CODE);
    assert.equal(result.attempts.length, 1);
    assert.equal(gen.used, 1);
    assert.equal(h.transport.calls.length, 1);
    assert.equal(h.transport.calls[0]?.source, VALID_CODE);
    assert.equal(world.ollama.calls('chat').filter(task('classify')).length, 0, 'a forced type skips the classifier');

    const final = messages[messages.length - 1] as ResponseMessage;
    // The final message delivers the answer whose code the service validated.
    assert.deepEqual(final, { text: fenced(VALID_CODE), avap_code: VALID_CODE, is_final: true, validation_status: '' });
    assert.ok(messages.slice(0, -1).every((m) => !m.is_final && m.attempt === 1));
    assert.equal(
      messages
        .slice(0, -1)
        .map((m) => m.text)
        .join(''),
      fenced(VALID_CODE),
      'the stream carries the whole answer',
    );
    // The search query the reformulation produced reached retrieval.
    assert.deepEqual(h.knowledge.queries, ['encodeSHA256 addParam password']);
    assert.ok(result.sources.some((s) => s.id === 'cmd-encodeSHA256::overview'));

    const events = h.telemetry.events;
    assert.equal(events.length, 1);
    assert.equal(events[0]?.verdict, 'valid');
    assert.equal(events[0]?.converged, true);
    assert.equal(events[0]?.parser_version, validateAvap('').parserVersion);
  });

  it('invalid then fixed: status "", two attempts, the retry prompt carries the trace', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    // One error has a proven fix, the other none: the parser's fixes alone cannot repair it, so the LLM retry runs.
    world.ollama.on(
      { endpoint: 'chat', when: task('generate_code'), times: 1 },
      { content: fenced(PARTLY_FIXABLE_CODE) },
    );
    world.ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(VALID_CODE) });
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(
      { query: 'hash the password', forceType: 'CODE_GENERATION' },
      { onMessage: (m) => messages.push(m) },
    );

    assert.equal(result.validationStatus, '');
    assert.equal(result.attempts.length, 2);
    assert.equal(result.code, VALID_CODE);
    const first = result.attempts[0];
    assert.equal(first?.outcome.kind === 'validated' && first.outcome.result.valid, false);
    assert.equal(h.transport.calls.length, 2);

    const generations = world.ollama.calls('chat').filter(task('generate_code'));
    assert.equal(generations.length, 2);
    const retryPrompt = lastUser(generations[1] as never);
    const expectedTrace = [
      "Line 2: 'getSHA256' not defined — did you mean 'encodeSHA256'?",
      "Line 3: unknown command 'sha256Encode' — expected known identifier",
    ];
    assert.ok(retryPrompt.startsWith(correctionContext(expectedTrace)), retryPrompt);
    assert.ok(retryPrompt.startsWith(`${CORRECTION_HEAD}\n${expectedTrace.join('\n')}\n${CORRECTION_TAIL}`));
    assert.match(retryPrompt, /replace 'getSHA256' with 'encodeSHA256'/);
    // The previous code goes back to the model as its own turn.
    const retryMessages = generations[1]?.body.messages ?? [];
    assert.ok(retryMessages.some((m) => m.role === 'assistant' && m.content.includes('getSHA256(p, h)')));

    // The response trace maps onto the lines of the answer text (prose, fence, then the code from line 3).
    assert.equal(first?.responseTrace?.[0]?.line, 4);
    assert.equal(first?.outcome.kind === 'validated' && first.outcome.result.trace[0]?.line, 2);

    assert.deepEqual([...new Set(messages.filter((m) => !m.is_final).map((m) => m.attempt))], [1, 2]);
    assert.deepEqual(
      h.telemetry.events.map((e) => [e.attempt, e.verdict, e.final, e.converged]),
      [
        [1, 'invalid', false, null],
        [2, 'valid', true, true],
      ],
    );
    assert.deepEqual(
      h.telemetry.events[0]?.errors.map((e) => [e.code, e.received, e.line]),
      [
        ['E001', 'getSHA256', 2],
        ['E001', 'sha256Encode', 3],
      ],
    );
  });

  it('a semantic warning alone never causes a retry: valid, status "", one generation', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    const code = 'addParam(city, city)\nAddvariableToJSON(city, city, reply)\naddResult(reply)';
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(code) });
    const result = await h.assistant.run({ query: 'echo the city back as JSON', forceType: 'CODE_GENERATION' });

    assert.equal(result.validationStatus, '');
    assert.equal(gen.used, 1, 'no retry for a warning');
    assert.equal(result.attempts.length, 1);
    const only = result.attempts[0];
    assert.ok(only?.outcome.kind === 'validated' && only.outcome.result.valid);
    assert.deepEqual(
      only.outcome.result.trace.map((e) => [e.code, e.severity, e.line, e.fix?.edits[0]?.newText]),
      // No fix: quoting the key changes nothing at run time (docs/parser-semantic-warnings.md).
      [['key-names-variable', 'warning', 2, undefined]],
    );
  });

  it('when errors cause a retry, its correction context lists the warnings too, with their advice', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    // The last error has no proven fix, so the parser's fixes alone cannot repair the answer and the LLM retry runs.
    const code =
      'addParam(city, city)\nAddvariableToJSON(city, city, reply)\ngetSHA256(city, h)\naddResult(reply)\nsha256Encode(h, d)';
    // The retry follows the warning's advice: the variable gets a name other than the key.
    const fixed = 'addParam(city, town)\nAddvariableToJSON(city, town, reply)\nencodeSHA256(town, h)\naddResult(reply)';
    world.ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(code) });
    world.ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(fixed) });
    const result = await h.assistant.run({ query: 'echo the city back as JSON', forceType: 'CODE_GENERATION' });

    assert.equal(result.validationStatus, '');
    assert.equal(result.attempts.length, 2);
    const retryPrompt = lastUser(world.ollama.calls('chat').filter(task('generate_code'))[1] as never);
    assert.match(
      retryPrompt,
      /^The previous attempt produced invalid AVAP code\. Specific failures:\nLine 2: warning: the key 'city' of AddvariableToJSON names the variable 'city'.*\nLine 3: 'getSHA256' not defined/,
    );
    assert.match(
      retryPrompt,
      /- Line 3: replace 'getSHA256' with 'encodeSHA256'.*\n- Line 5: .*\n- Line 2: warning: .*give the variable a name other than 'city'\./,
    );
    assert.deepEqual(
      h.telemetry.events[0]?.errors.map((e) => [e.rule, e.severity]),
      [
        ['key-names-variable', 'warning'],
        ['unknown-command', 'error'],
        ['unknown-command', 'error'],
      ],
    );
  });

  it('invalid twice: INVALID_UNRESOLVED after exactly one retry (two parser calls, both INVALID)', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    // An error the parser's fixes cannot repair and that no streamed line proves early (foreign code is stopped
    // mid-stream instead: fewerRoundTrips.test.ts), so the service judges both attempts.
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const result = await h.assistant.run({ query: 'hash it', forceType: 'CODE_GENERATION' });

    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(gen.used, 2, 'one retry, never more');
    assert.equal(h.transport.calls.length, 2);
    assert.equal(result.attempts.length, 2);
    for (const attempt of result.attempts) {
      assert.equal(attempt.outcome.kind === 'validated' && attempt.outcome.result.valid, false);
    }
    assert.equal(result.code, INVALID_CODE, 'the last candidate is returned');
    const last = h.telemetry.events[h.telemetry.events.length - 1];
    assert.equal(last?.validation_status, 'INVALID_UNRESOLVED');
    assert.equal(last?.converged, false);
    assert.ok(last?.errors.some((e) => e.code === 'E001'));
  });

  it('several fenced blocks are validated each and traces map back to response lines', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    const answer = `First read it:\n\`\`\`avap\naddParam(password, p)\n\`\`\`\nThen hash:\n\`\`\`\nsha256Encode(p, h)\naddResult(h)\n\`\`\``;
    world.ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: answer });
    world.ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(VALID_CODE) });
    const result = await h.assistant.run({ query: 'hash', forceType: 'CODE_GENERATION' });
    assert.equal(result.validationStatus, '');
    assert.deepEqual(
      h.transport.calls.slice(0, 2).map((c) => c.source),
      ['addParam(password, p)', 'sha256Encode(p, h)\naddResult(h)'],
    );
    const first = result.attempts[0];
    assert.equal(first?.code, 'addParam(password, p)\nsha256Encode(p, h)\naddResult(h)');
    assert.equal(first?.responseTrace?.[0]?.line, 7, 'line 7 of the answer holds sha256Encode');
    assert.equal(
      first?.outcome.kind === 'validated' && first.outcome.result.trace[0]?.line,
      2,
      'line 2 of the candidate program',
    );
  });

  it('bare code without fences is validated too', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: VALID_CODE });
    const result = await h.assistant.run({ query: 'hash', forceType: 'CODE_GENERATION' });
    assert.equal(result.validationStatus, '');
    assert.deepEqual(
      h.transport.calls.map((c) => c.source),
      [VALID_CODE],
    );
  });

  it('a correction request starts at the retry step with the given trace', async () => {
    h = await harness(world);
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const trace = validateAvap(INVALID_CODE).trace;
    const result = await h.assistant.run({ query: 'hash the password', correction: { code: INVALID_CODE, trace } });
    assert.equal(result.validationStatus, '');
    assert.equal(result.classification, 'correction');
    assert.equal(gen.used, 1);
    assert.equal(world.ollama.calls('chat').filter(task('classify')).length, 0);
    assert.equal(world.ollama.calls('chat').filter(task('reformulate')).length, 0);
    const prompt = lastUser(world.ollama.calls('chat').filter(task('generate_code'))[0] as never);
    assert.ok(
      prompt.startsWith(correctionContext(["Line 2: unknown command 'sha256Encode' — expected known identifier"])),
    );
    assert.deepEqual(
      result.attempts.map((a) => a.attempt),
      [1, 2],
    );
    assert.equal(h.transport.calls.length, 1, 'only the new candidate is sent to the parser');
  });

  it('a correction that is still invalid ends INVALID_UNRESOLVED without another retry', async () => {
    h = await harness(world);
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const result = await h.assistant.run({
      query: 'hash',
      correction: { code: INVALID_CODE, trace: validateAvap(INVALID_CODE).trace },
    });
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(gen.used, 1);
  });
});
