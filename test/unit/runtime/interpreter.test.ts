import assert from 'node:assert/strict';
import type { HttpCall, HttpPort } from '../../../src/runtime';
import { ok } from '../../../src/result';
import { LIMITS, ports, RecordedHttp, request, run } from './fakes';
import { execute } from '../../../src/runtime';

/** An HTTP port that answers every GET after `delayMs`, counting the calls. */
class SlowHttp implements HttpPort {
  calls: HttpCall[] = [];
  constructor(private readonly delayMs: number) {}
  fetch(call: HttpCall, signal: AbortSignal) {
    this.calls.push(call);
    return new Promise<ReturnType<typeof ok<{ status: number; headers: Record<string, string>; body: string }>>>(
      (resolve) => {
        const t = setTimeout(
          () => resolve(ok({ status: 200, headers: {}, body: String(this.calls.length) })),
          this.delayMs,
        );
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          resolve(ok({ status: 200, headers: {}, body: 'aborted' }));
        });
      },
    );
  }
}

describe('runtime: blocks and the flat namespace', () => {
  it('runs if/else and nested blocks; variables set inside blocks are visible after them', async () => {
    const r = await run([
      'addVar(n, 7)',
      'if(n, 5, >)',
      '  if(n, 7, =)',
      '    addVar(kind, "seven")',
      '  else()',
      '    addVar(kind, "big")',
      '  end()',
      'else()',
      '  addVar(kind, "small")',
      'end()',
      'addResult(kind)',
    ]);
    assert.deepEqual(r.result, { kind: 'seven' });
  });

  it('loops over inclusive bounds from variables or expressions; the body may change the counter without changing the passes', async () => {
    const r = await run([
      'addVar(last, 4)',
      'addVar(passes, 0)',
      'startLoop(i, 1, last - 1)',
      '  passes = passes + 1',
      '  i = 100',
      'endLoop()',
      'startLoop(j, 2, 1)',
      '  addVar(never, 1)',
      'endLoop()',
    ]);
    assert.equal(r.variables.passes, 3);
    assert.equal(r.variables.i, 100);
    assert.equal('j' in r.variables, false);
    assert.equal('never' in r.variables, false);
  });

  it('an empty if() operand tests emptiness, as the specification guards a query result', async () => {
    const src = (rows: string): string[] => [
      `user = ${rows}`,
      'if(user, , !=)',
      '  addVar(found, "yes")',
      'else()',
      '  addVar(found, "no")',
      'end()',
      'if(user, , =)',
      '  addVar(empty, "yes")',
      'end()',
    ];
    assert.deepEqual((await run(src('[]'))).variables, { user: [], found: 'no', empty: 'yes' });
    assert.deepEqual((await run(src('[{"id": 1}]'))).variables, { user: [{ id: 1 }], found: 'yes' });
    assert.deepEqual((await run(src('""'))).variables, { user: '', found: 'no', empty: 'yes' });
    assert.equal((await run(['if(a, , >)', 'end()'])).error?.code, 'argument-error');
  });

  it('refuses a loop bound that is not a number', async () => {
    const r = await run(['startLoop(i, 1, many)', 'endLoop()']);
    assert.equal(r.error?.code, 'value-error');
    assert.match(r.error?.message ?? '', /invalid literal for int\(\) with base 10: 'many'/);
  });

  it('starts from the request variables and answers _status', async () => {
    const r = await run(['addVar(_status, code)', 'addResult(greeting)'], {
      request: { variables: { code: 201, greeting: 'hi' } },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(r.result, { greeting: 'hi' });
    assert.equal((await run(['_status = "abc"'])).status, 200);
    assert.equal((await run(['_status = 99'])).status, 200);
  });
});

describe('runtime: errors', () => {
  it('an uncaught error ends the run with 500 and names the line, the command and the cause', async () => {
    const r = await run([
      'addVar(a, 1)',
      'addResult(a)',
      'if(a, 0, >)',
      '  itemFromList(a, 0, x)',
      'end()',
      'addVar(after, 1)',
    ]);
    assert.equal(r.status, 500);
    assert.deepEqual(r.error, {
      line: 4,
      command: 'itemFromList',
      message: "itemFromList: 'a' is not a list (it is int)",
      code: 'type-error',
    });
    assert.deepEqual(r.result, { a: 1 }, 'what was built before the error stays');
    assert.equal('after' in r.variables, false);
  });

  it('try()/exception(): an error jumps to the handler with the message in the variable and in __last_error__', async () => {
    const r = await run([
      'try()',
      '  addVar(before, 1)',
      '  noSuchThing()',
      '  addVar(skipped, 1)',
      'exception(err)',
      '  addVar(handled, err)',
      'end()',
      'try()',
      '  addVar(fine, 1)',
      'exception(err2)',
      '  addVar(never, 1)',
      'end()',
    ]);
    assert.equal(r.error, undefined);
    assert.equal(r.variables.before, 1);
    assert.equal('skipped' in r.variables, false);
    assert.equal(r.variables.err, 'Command not found: noSuchThing');
    assert.equal(r.variables.__last_error__, 'Command not found: noSuchThing');
    assert.equal(r.variables.handled, 'Command not found: noSuchThing');
    assert.equal('never' in r.variables, false);
    assert.equal('err2' in r.variables, false);
  });

  it('an error inside a nested block or a function is caught by the try() around it; an error in the handler is not', async () => {
    const r = await run([
      'function boom() {',
      '  x = [1]',
      '  itemFromList(x, 9, y)',
      '}',
      'try()',
      '  startLoop(i, 1, 3)',
      '    boom()',
      '  endLoop()',
      'exception(e)',
      'end()',
      'try()',
      '  boom()',
      'exception(e2)',
      '  noSuch()',
      'end()',
    ]);
    assert.equal(r.variables.e, 'list index out of range');
    assert.equal(r.variables.i, 1);
    assert.equal(r.error?.line, 14);
    assert.equal(r.error?.code, 'unknown-command');
  });

  it('a line that is not AVAP is an error when it runs, not before', async () => {
    const r = await run(['addVar(a, 1)', 'for i in range(3):', 'addVar(b, 2)']);
    assert.equal(r.variables.a, 1);
    assert.equal(r.error?.line, 2);
    assert.equal(r.error?.code, 'syntax-error');
    const flawed = await run(['addVar(a, 1', 'addVar(b, 2)']);
    assert.equal(flawed.error?.line, 1);
    assert.match(flawed.error?.message ?? '', /missing '\)'/);
  });
});

describe('runtime: functions', () => {
  it('pass arguments, return values, keep their assignments visible, and recurse within limits', async () => {
    const r = await run([
      'function area(w, h) {',
      '  a = w * h',
      '  return a',
      '}',
      'function fact(n) {',
      '  if(n, 1, <=)',
      '    return 1',
      '  end()',
      '  m = n - 1',
      '  sub = fact(m)',
      '  return n * sub',
      '}',
      'x = area(3, 4)',
      'y = fact(5)',
      'area(1, 1)',
    ]);
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.variables.x, 12);
    assert.equal(r.variables.y, 120);
    assert.equal(r.variables.a, 1, 'a function assignment stays visible');
    assert.equal('w' in r.variables, false, 'parameters do not');
  });

  it('stop runaway recursion with an error', async () => {
    const r = await run(['function f(n) {', '  r = f(n)', '}', 'f(1)']);
    assert.equal(r.error?.code, 'recursion-limit');
  });

  it('a function defined after its first call is found; a missing argument is unset', async () => {
    const r = await run(['v = g()', 'function g(p) {', '  return p', '}']);
    assert.equal(r.variables.v, 'p', 'an unset name reads as its own text');
  });
});

describe('runtime: go_async and gather', () => {
  it('a block runs on a copy of the variables; gather waits for it', async () => {
    const http = new SlowHttp(5);
    const r = await run(
      [
        'addVar(shared, "before")',
        'go_async(job)',
        '  RequestGet(https://slow.test/a, , , answer)',
        '  addVar(shared, "changed in the block")',
        '  addVar(from_block, answer)',
        'end()',
        'gather(job, 5)',
        'addResult(shared)',
      ],
      { ports: ports({ http }) },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(http.calls.length, 1);
    assert.equal(r.result.shared, 'before');
    assert.equal('from_block' in r.variables, false);
  });

  it('a block nobody gathers is stopped when the main flow ends; what it did before its first wait stands', async () => {
    const http = new SlowHttp(10_000);
    const started = Date.now();
    const r = await run(
      [
        'go_async(bg)',
        '  addVar(x, 1)',
        '  RequestGet(https://slow.test/a, , , y)',
        '  addVar(z, 1)',
        'end()',
        'addVar(main, 1)',
      ],
      { ports: ports({ http }), limits: { trace: true } },
    );
    assert.ok(Date.now() - started < 5000, 'the run does not wait for the block');
    assert.equal(r.error, undefined);
    assert.equal(http.calls.length, 1);
    assert.deepEqual(
      r.steps?.map((s) => s.line),
      [1, 2, 3, 6],
    );
  });

  it('gather times out with an error; an unknown id is an error', async () => {
    const r = await run(
      ['go_async("slow")', '  RequestGet(https://slow.test/a, , , x)', 'end()', 'gather("slow", 0.01)'],
      { ports: ports({ http: new SlowHttp(500) }) },
    );
    assert.equal(r.error?.code, 'gather-timeout');
    assert.equal((await run(['gather(nothing, 1)'])).error?.code, 'argument-error');
  });
});

describe('runtime: budgets, cancellation and tracing', () => {
  it('the step budget stops a runaway loop deterministically', async () => {
    const a = await run(['startLoop(i, 1, 100000000)', '  x = i', 'endLoop()'], { limits: { maxSteps: 5000 } });
    const b = await run(['startLoop(i, 1, 100000000)', '  x = i', 'endLoop()'], { limits: { maxSteps: 5000 } });
    assert.equal(a.error?.code, 'step-budget');
    assert.deepEqual(a.variables, b.variables);
  });

  it('try() cannot catch the budget', async () => {
    const r = await run(
      ['try()', '  startLoop(i, 1, 1000000)', '  endLoop()', 'exception(e)', 'end()', 'addVar(after, 1)'],
      {
        limits: { maxSteps: 100 },
      },
    );
    assert.equal(r.error?.code, 'step-budget');
    assert.equal('after' in r.variables, false);
  });

  it('an aborted signal cancels the run at its next statement, and the port call in flight', async () => {
    const controller = new AbortController();
    const http = new SlowHttp(10_000);
    const pending = execute('RequestGet(https://slow.test/a, , , x)\naddVar(after, 1)', request(), ports({ http }), {
      ...LIMITS,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 10);
    const r = await pending;
    assert.equal(r.error?.code, 'cancelled');
    assert.equal('after' in r.variables, false);
  });

  it('records each statement and the variables it changed when asked', async () => {
    const r = await run(['addVar(a, 1)', 'startLoop(i, 1, 2)', '  b = a + i', 'endLoop()', 'addResult(b)'], {
      limits: { trace: true },
    });
    assert.deepEqual(r.steps, [
      { line: 1, command: 'addVar', changes: { a: 1 } },
      { line: 2, command: 'startLoop', changes: {} },
      { line: 2, command: 'startLoop', changes: { i: 1 } },
      { line: 3, command: 'assign', changes: { b: 2 } },
      { line: 2, command: 'startLoop', changes: { i: 2 } },
      { line: 3, command: 'assign', changes: { b: 3 } },
      { line: 5, command: 'addResult', changes: {} },
    ]);
    assert.equal((await run(['addVar(a, 1)'])).steps, undefined);
    const caught = await run(['try()', '  nope()', 'exception(e)', 'end()'], { limits: { trace: true } });
    assert.deepEqual(caught.steps?.slice(-1), [
      {
        line: 3,
        command: 'exception',
        changes: { __last_error__: 'Command not found: nope', e: 'Command not found: nope' },
      },
    ]);
  });

  it('a bounded trace records the first maxTraceSteps steps and counts the rest; the run itself is unchanged', async () => {
    const lines = ['startLoop(i, 1, 1000)', '  addVar(x, i)', 'endLoop()', 'addResult(x)'];
    const full = await run(lines, { limits: { trace: true } });
    const bounded = await run(lines, { limits: { trace: true, maxTraceSteps: 5 } });
    assert.equal(full.steps?.length, 2002);
    assert.equal(full.stepsOmitted, undefined, 'nothing omitted without a limit');
    assert.deepEqual(bounded.steps, full.steps?.slice(0, 5));
    assert.equal(bounded.stepsOmitted, 1997);
    assert.deepEqual(bounded.result, { x: 1000 });
    assert.deepEqual(bounded.variables, full.variables);
  });

  it('logs each top-level statement as the reference does', async () => {
    const r = await run([
      'addVar(a, 1)',
      'if(a, 1, =)',
      '  addVar(b, 2)',
      'end()',
      'try()',
      '  nope()',
      'exception(e)',
      'end()',
    ]);
    assert.deepEqual(
      r.logs.map((l) => {
        const e = l as { command: string; success: boolean };
        return `${e.command}:${e.success}`;
      }),
      ['addVar:true', 'if:true', 'try:true', 'nope:false', 'exception:true'],
    );
  });

  it('a program of pure statements answers in the same turn: no port, no timer', async () => {
    const http = new RecordedHttp();
    const r = await run(['addVar(a, 1)', 'b = a + 1', 'addResult(b)'], { ports: ports({ http }) });
    assert.deepEqual(r.result, { b: 2 });
    assert.equal(http.calls.length, 0);
  });
});

describe('runtime: names of Object.prototype members are names like any', () => {
  const names = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__', 'isPrototypeOf'];
  /** `W` as a variable, addVar's and addParam's target, a function, a parameter, a loop counter and a dict key. */
  const shapes = [
    'W = 1\naddResult(W)',
    'addVar(W, 2)\naddResult(W)',
    'addVar(W, "t")\nx = W + "s"\naddResult(x)',
    'addParam("W", W)\naddResult(W)',
    'function W(a) {\n  return(a)\n}\nx = W(1)\naddResult(x)',
    'function f(W) {\n  return(W)\n}\nx = f(1)\naddResult(x)',
    'startLoop(W, 1, 3)\nendLoop()\naddResult(W)',
    'x = {"W": 1}\naddResult(x)',
    'addVar(x, {"W": 1})\nvariableFromJSON(x, W, y)\naddResult(y)',
    'x = {"W": 5}\ny = x["W"]\naddResult(y)',
    'j = {}\nAddvariableToJSON("W", 1, j)\naddResult(j)',
    'W = [1, 2]\ngetListLen(W, n)\naddResult(n)',
  ];

  it('a program runs with such a name as with an ordinary one: result, variables, logs and traced steps', async () => {
    for (const shape of shapes)
      for (const name of names) {
        const ordinary = 'q'.repeat(name.length);
        const once = async (w: string) =>
          JSON.stringify(
            await run(shape.replaceAll('W', w), { request: { query: { [w]: 'v' } }, limits: { trace: true } }),
          );
        assert.equal((await once(name)).replaceAll(name, ordinary), await once(ordinary), shape.replaceAll('W', name));
      }
  });

  it('answers a variable named __proto__ as an own key of result and variables (not as their prototype)', async () => {
    const r = await run(['__proto__ = {"a": 1}', 'addResult(__proto__)'], { limits: { trace: true } });
    assert.ok(Object.hasOwn(r.result, '__proto__'));
    assert.deepEqual(r.result['__proto__'], { a: 1 });
    assert.equal(Object.getPrototypeOf(r.result), Object.prototype);
    assert.ok(Object.hasOwn(r.variables, '__proto__'));
    assert.equal(JSON.stringify(r.steps?.[0]?.changes), '{"__proto__":{"a":1}}');
  });
});

describe('runtime: robustness', () => {
  it('never throws and never fails inside itself, whatever the program', async () => {
    const { default: fc } = await import('fast-check');
    const fragments = [
      'addVar(a, 1)',
      'addVar(b, a)',
      'a = a + 1',
      'b = [1, "x", None]',
      'c = b[0] / a',
      'd = {"k": b}',
      'if(a, 2, >)',
      'if(None, None, "a > 1")',
      'else()',
      'end()',
      'startLoop(i, 1, a)',
      'endLoop()',
      'try()',
      'exception(e)',
      'function f(x) {',
      'return x',
      '}',
      'r = f(a)',
      'f(b)',
      'go_async(j)',
      'gather(j, 1)',
      'addResult(a)',
      'variableToList(a, l)',
      'getListLen(l, n)',
      'itemFromList(l, 5, z)',
      'AddvariableToJSON(k, a, d)',
      'variableFromJSON(d, k, v)',
      'replace(a, [0-9], x, s)',
      'getDateTime(%Y, 0, UTC, t)',
      'encodeMD5(a, h)',
      'RequestGet(https://x.test/, , , g)',
      'ormDirect(SELECT 1, q)',
      'x = `t${a}`',
      '_status = a',
      '$a = 1',
      'noSuch()',
      '(',
      '"',
      '',
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...fragments), { maxLength: 25 }), async (lines) => {
        const r = await run(lines, { limits: { maxSteps: 500 } });
        assert.ok(Number.isInteger(r.status));
        assert.notEqual(r.error?.code, 'internal-error', r.error?.message);
        if (r.error) assert.ok(r.error.line >= 1 && r.error.line <= Math.max(1, lines.length), JSON.stringify(r.error));
        JSON.stringify(r);
      }),
      { numRuns: 300 },
    );
  });
});
