/**
 * gather (wait for a go_async block) and the platform commands the runtime
 * refuses: what registerEndpoint routes and what an avapConnector token opens
 * are the platform's, not the language's, so a run cannot know them.
 */
import { toFloat } from '../expressions/evaluate';
import { RunFailure } from '../failure';
import { pyStr } from '../pytext';
import { command } from './types';

export const gather = command({
  name: 'gather',
  arity: [1, 2],
  inReference: false,
  async run(c) {
    if (c.isEmpty(0)) throw RunFailure.of('argument-error', 'gather needs the id of a go_async() block');
    const id = pyStr(c.read(0));
    const seconds = c.isEmpty(1) ? Infinity : toFloat(c.read(1)).v;
    if (Number.isNaN(seconds) || seconds < 0)
      throw RunFailure.of('value-error', 'gather: the timeout must be a number of seconds');
    await c.gather(id, seconds * 1000);
  },
});

export const registerEndpoint = command({
  name: 'registerEndpoint',
  arity: [0, 6],
  inReference: false,
  run() {
    throw RunFailure.unsupported(
      'registerEndpoint',
      "routing requests to handlers is the platform's; a run executes one endpoint's code for one request",
    );
  },
});

export const avapConnector = command({
  name: 'avapConnector',
  arity: [0, 1],
  inReference: false,
  run() {
    throw RunFailure.unsupported(
      'avapConnector',
      'what a connector token opens is defined by the platform, not by the language',
    );
  },
});
