import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { validateAvap } from '../../../src/parser';
// internal-import: the service has no library entry; its validate handler, called without gRPC
import { validateHandler } from '../../../src/server/parserService';
// internal-import: the service has no library entry; its scheduler, tested without workers
import { ParseScheduler } from '../../../src/server/scheduler';
import type { WireValidateResponse } from '../../../src/protocol';

type Outcome = { err: Partial<grpc.StatusObject> | null; res?: WireValidateResponse };

/** Drives the handler with a fake call; the scheduler parses in-process. Resolves with the answer, or undefined when none came. */
async function drive(
  request: { source: string; filename: string },
  deadline: grpc.Deadline,
  cancelled = false,
  max = 1000,
): Promise<Outcome | undefined> {
  const scheduler = new ParseScheduler([
    { parse: (source, filename) => Promise.resolve(validateAvap(source, { filename, maxBytes: max })) },
  ]);
  let outcome: Outcome | undefined;
  const call = { request, cancelled, getDeadline: () => deadline } as unknown as Parameters<
    ReturnType<typeof validateHandler>
  >[0];
  validateHandler(
    max,
    () => undefined,
    scheduler,
  )(call, (err, res) => {
    outcome = { err, res: res ?? undefined };
  });
  for (let i = 0; i < 20 && !outcome; i++) await new Promise((resolve) => setImmediate(resolve));
  return outcome;
}

describe('parser service: Validate handler', () => {
  it('answers with the verdict when the deadline is in the future or absent', async () => {
    const future = await drive({ source: 'addVar(a, 1)\n', filename: 'a.avap' }, new Date(Date.now() + 60_000));
    assert.equal(future?.err, null);
    assert.equal(future?.res?.valid, true);
    const none = await drive({ source: 'getSHA256(a, b)\n', filename: 'a.avap' }, Infinity);
    assert.equal(none?.res?.valid, false);
    assert.equal(none?.res?.trace[0]?.suggestion, 'encodeSHA256');
  });

  it('honours a client deadline that already passed', async () => {
    const out = await drive({ source: 'addVar(a, 1)\n', filename: 'a.avap' }, new Date(Date.now() - 1));
    assert.equal(out?.err?.code, grpc.status.DEADLINE_EXCEEDED);
  });

  it('does nothing for a cancelled call', async () => {
    assert.equal(await drive({ source: 'addVar(a, 1)\n', filename: 'a.avap' }, Infinity, true), undefined);
  });

  it('counts the limit in UTF-8 bytes', async () => {
    const out = await drive({ source: `addVar(a, "${'é'.repeat(600)}")`, filename: 'a.avap' }, Infinity);
    assert.equal(out?.err?.code, grpc.status.INVALID_ARGUMENT);
  });
});
