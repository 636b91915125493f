/**
 * The AVAP authors' own test programs (AVAP Lite's tests/test_avap.py, tests 1
 * to 11), rewritten here with our own names and replayed through our runtime
 * with the outcomes those tests assert. Test 12 checks the reference server's
 * bytecode store (/api/v1/compile), which is no part of the language.
 *
 * The HTTP tests (6, 7, 9) get recorded answers standing in for the public
 * service the originals call: a todo object, a list of comments for postId=1,
 * and 404 for anything else, as that service answers.
 */
import assert from 'node:assert/strict';
import { ports, RecordedHttp, run } from './fakes';

const SERVICE = 'https://jsonplaceholder.typicode.com';
const http = (): RecordedHttp =>
  new RecordedHttp([
    {
      method: 'GET',
      url: `${SERVICE}/todos/1`,
      status: 200,
      body: '{"userId": 1, "id": 1, "title": "first", "completed": false}',
    },
    {
      method: 'GET',
      url: `${SERVICE}/comments?postId=1`,
      status: 200,
      body: '[{"postId": 1, "id": 1, "name": "a"}, {"postId": 1, "id": 2, "name": "b"}]',
    },
    { method: 'GET', url: `${SERVICE}/todos/999999`, status: 404, body: '{}' },
    { method: 'GET', url: `${SERVICE}/posts/invalid/error500`, status: 404, body: '{}' },
  ]);

describe("the AVAP authors' test programs, replayed", () => {
  it('1: a decimal number is stored and returned as a float', async () => {
    const r = await run(['addVar(amount, 123.45)', 'addResult(amount)']);
    assert.equal(r.variables.amount, 123.45);
    assert.equal(r.result.amount, 123.45);
  });

  it('2: if/else with a quoted value and a bare comparator takes the true branch', async () => {
    const r = await run([
      '    addVar(role, "admin")',
      '    if(role, "admin", =)',
      '        addVar(access, "granted")',
      '    else()',
      '        addVar(access, "denied")',
      '    end()',
      '    addResult(access)',
    ]);
    assert.equal(r.variables.access, 'granted');
    assert.equal(r.result.access, 'granted');
  });

  it('3: a loop bound read from a variable, and concatenation with str() of the counter', async () => {
    const r = await run([
      'addVar(limit, 3)',
      'startLoop(i, 1, limit)',
      '    ticket = "T-" + str(i)',
      '    addVar(last_ticket, ticket)',
      'endLoop()',
      'addResult(last_ticket)',
    ]);
    assert.equal(r.variables.last_ticket, 'T-3');
  });

  it('4: addParam reads the query string', async () => {
    const r = await run(['addParam(user, who)', 'addResult(who)'], { request: { query: { user: 'rafa_test' } } });
    assert.equal(r.result.who, 'rafa_test');
  });

  it('5: parameter → if → loop → results', async () => {
    const r = await run(
      [
        'addParam(limit, max)',
        'addVar(state, "working")',
        'if(max, 0, >)',
        '    startLoop(idx, 1, max)',
        '        value = idx * 10',
        '        addVar(tmp, value)',
        '    endLoop()',
        '    addVar(final, "done")',
        'else()',
        '    addVar(final, "error")',
        'end()',
        'addResult(final)',
        'addResult(tmp)',
      ],
      { request: { query: { limit: '4' } } },
    );
    assert.equal(r.error, undefined);
    assert.equal(r.result.final, 'done');
    assert.equal(r.variables.tmp, 40);
    assert.equal(r.result.tmp, 40);
  });

  it('6: RequestGet with quoted arguments, and with a filter dict given as text', async () => {
    const first = await run([`RequestGet('${SERVICE}/todos/1', '', '', 'api_data')`, 'addResult(api_data)'], {
      ports: ports({ http: http() }),
    });
    assert.equal(first.error, undefined, first.error?.message);
    assert.ok('userId' in (first.result.api_data as object));
    const second = await run(
      [
        `target_url = "${SERVICE}/comments"`,
        `addVar(filters, "{'postId': 1}")`,
        "RequestGet(target_url, filters, '', 'received')",
        'addResult(received)',
      ],
      { ports: ports({ http: http() }) },
    );
    assert.equal(second.error, undefined, second.error?.message);
    assert.ok((second.result.received as unknown[]).length > 0);
  });

  it('7: a failed RequestGet inside try() lets the handler set _status to 404', async () => {
    const r = await run(
      ['try()', `    RequestGet("${SERVICE}/todos/999999", "", "", "res")`, 'exception()', '_status = 404'],
      { ports: ports({ http: http() }) },
    );
    assert.equal(r.status, 404);
  });

  it('8: try() catches a command that does not exist; exception(var) and x = exception(var) get the message', async () => {
    const r = await run(
      ['try()', '    missingCommand()', 'detail = exception(msg)', 'addResult(detail)', 'addResult(msg)'],
      { request: { variables: { msg: 'waiting...' } } },
    );
    assert.equal(r.error, undefined);
    assert.ok(String(r.result.detail).toLowerCase().includes('not found'));
    assert.equal(r.result.msg, r.result.detail);
  });

  it('9: network error → exception → _status = 500, with a message in the response', async () => {
    const r = await run(
      [
        'try()',
        `    RequestGet("${SERVICE}/posts/invalid/error500", "{}", "{}", "res")`,
        'reason = exception("msg")',
        'if(reason, "No error detected", "!=")',
        '    _status = 500',
        '    addVar("outcome", "critical error detected")',
        '    addResult("outcome")',
        '    addResult("reason")',
        'end()',
      ],
      { ports: ports({ http: http() }), request: { variables: { msg: 'waiting...' } } },
    );
    assert.equal(r.status, 500);
    assert.equal(r.error, undefined, 'the status comes from _status, not from an uncaught error');
    assert.equal(r.result.outcome, 'critical error detected');
  });

  it('10: arithmetic of constants', async () => {
    const r = await run(['x = 50 + 50', "addVar('optimized', x)", "addResult('optimized')"]);
    assert.equal(r.result.optimized, 100);
  });

  it('11: assignments, a sum and == in if()', async () => {
    const r = await run([
      'a = 10',
      'b = 20',
      'c = a + b',
      'if(c, 30, ==)',
      `    addVar('final_value', "ok")`,
      'end()',
      "addResult('final_value')",
    ]);
    assert.equal(r.result.final_value, 'ok');
  });
});
