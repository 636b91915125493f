import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  offsetAt,
  parseSyntax,
  positionAt,
  statementAt,
  textOf,
  walk,
  type CallStatement,
  type Statement,
  type SyntaxBlock,
  type SyntaxNode,
  type SyntaxTree,
} from '../../../src/syntax';

function call(tree: SyntaxTree, line: number): CallStatement {
  const s = statementAt(tree, line);
  if (s?.kind !== 'call') assert.fail(`line ${line} is ${s?.kind}`);
  return s;
}

function blocks(nodes: readonly SyntaxNode[]): SyntaxBlock[] {
  const found: SyntaxBlock[] = [];
  walk(nodes, (n) => {
    if (n.kind === 'block') found.push(n);
  });
  return found;
}

/** Every span lies inside the text and inside its line. */
function assertSpansSound(tree: SyntaxTree): void {
  const n = tree.source.length;
  for (const s of tree.statements) {
    assert.ok(s.span.start >= 0 && s.span.start <= s.span.end && s.span.end <= n, `line ${s.line} span`);
    const lineStart = tree.lineStarts[s.line - 1] as number;
    assert.ok(s.span.start >= lineStart, `line ${s.line} starts before its line`);
    if (s.kind === 'call') {
      assert.equal(textOf(tree, s.name.span), s.name.text);
      for (const a of s.args) if (a.text !== '') assert.equal(textOf(tree, a.span), a.text);
    }
  }
}

describe('syntax tree: statements', () => {
  it('reads calls with their name, arguments and spans; empty arguments keep their place', () => {
    const src = 'RequestGet(url, , , reply)\n  addVar(greeting, "hello, world")';
    const tree = parseSyntax(src);
    const get = call(tree, 1);
    assert.equal(get.name.text, 'RequestGet');
    assert.deepEqual(
      get.args.map((a) => a.text),
      ['url', '', '', 'reply'],
    );
    assert.equal(textOf(tree, get.args[3]!.span), 'reply');
    assert.equal(textOf(tree, get.args[1]!.span).trim(), '');
    assert.deepEqual(get.open, { start: 10, end: 11 });
    assert.equal(textOf(tree, get.close!), ')');
    const add = call(tree, 2);
    assert.deepEqual(
      add.args.map((a) => a.text),
      ['greeting', '"hello, world"'],
    );
    assert.equal(textOf(tree, add.span), 'addVar(greeting, "hello, world")');
  });

  it('tells an assignment of an expression from an assignment of a command result', () => {
    const tree = parseSyntax('total = a + b * 2\nreply = RequestGet(url, , )\nn = len(items)\nx = f(a) + 1');
    const assign = statementAt(tree, 1);
    assert.equal(assign?.kind, 'assign');
    if (assign?.kind === 'assign') {
      assert.equal(assign.target.text, 'total');
      assert.equal(assign.value.text, 'a + b * 2');
      assert.equal(textOf(tree, assign.value.span), 'a + b * 2');
    }
    const withTarget = call(tree, 2);
    assert.equal(withTarget.target?.text, 'reply');
    assert.equal(withTarget.name.text, 'RequestGet');
    assert.equal(statementAt(tree, 3)?.kind, 'assign', 'len() is an expression built-in');
    assert.equal(statementAt(tree, 4)?.kind, 'assign', 'a call inside a larger expression');
  });

  it('reads function headers, returns, braces, comments and blank lines', () => {
    const src = [
      'function total(a, b) {',
      '  return a + b',
      '}',
      'function empty()',
      '{',
      '  return',
      '}',
      '',
      '// a comment',
      '/* a block',
      '   comment */',
      'addResult(x) // trailing',
    ].join('\n');
    const tree = parseSyntax(src);
    const header = statementAt(tree, 1);
    assert.equal(header?.kind, 'function');
    if (header?.kind === 'function') {
      assert.equal(header.name.text, 'total');
      assert.deepEqual(
        header.params.map((p) => p.text),
        ['a', 'b'],
      );
      assert.equal(textOf(tree, header.params[1]!.span), 'b');
      assert.ok(header.brace);
    }
    const ret = statementAt(tree, 2);
    assert.equal(ret?.kind, 'return');
    if (ret?.kind === 'return') assert.equal(ret.value?.text, 'a + b');
    assert.equal(statementAt(tree, 3)?.kind, 'close-brace');
    assert.equal(statementAt(tree, 5)?.kind, 'open-brace');
    const bare = statementAt(tree, 6);
    assert.equal(bare?.kind === 'return' && bare.value, undefined);
    assert.equal(statementAt(tree, 8)?.kind, 'blank');
    assert.equal(statementAt(tree, 9)?.kind, 'comment');
    assert.equal(statementAt(tree, 10)?.kind, 'comment');
    assert.equal(statementAt(tree, 11)?.kind, 'comment');
    const trailing = call(tree, 12);
    assert.equal(textOf(tree, trailing.comment!), '// trailing');
    assert.equal(textOf(tree, trailing.span), 'addResult(x)');
    assert.equal(tree.functions.length, 2);
    assert.equal(tree.functions[1]!.brace?.line, 5);
    assert.deepEqual(tree.problems, []);
  });

  it('keeps a line it cannot read as unparsed, with its text and a reason', () => {
    const tree = parseSyntax('for i in range(3):\naddVar(a, 1); addVar(b, 2)\n} else {\n42');
    for (const line of [1, 2, 3, 4]) {
      const s = statementAt(tree, line) as Statement;
      assert.equal(s.kind, 'unparsed', `line ${line}`);
      if (s.kind === 'unparsed') {
        assert.equal(s.text, tree.source.split('\n')[line - 1]);
        assert.ok(s.reason.length > 0);
      }
    }
    assert.equal(tree.problems.filter((p) => p.code === 'unparsed-line').length, 4);
  });

  it('marks calls it can only partly read', () => {
    const tree = parseSyntax('addVar(a, 1\naddVar(b, "open)\nif(a, 1, =) {\nend()\nif(`  ');
    assert.equal(call(tree, 5).args[0]?.text, '`');
    assert.equal(call(tree, 1).flaw, "missing ')'");
    assert.equal(call(tree, 2).flaw, 'unterminated string');
    const opener = call(tree, 3);
    assert.ok(opener.trailing);
    assert.equal(textOf(tree, opener.trailing), '{');
  });
});

describe('syntax tree: blocks', () => {
  it('nests if/else/end, loops, try/exception/end, go_async and functions with their openers and closers', () => {
    const src = [
      'if(a, 1, =)', // 1
      '  startLoop(i, 1, 3)', // 2
      '    addVar(b, i)', // 3
      '  endLoop()', // 4
      'else()', // 5
      '  try()', // 6
      '    RequestGet(u, , , r)', // 7
      '  exception(e)', // 8
      '    addVar(r, failed)', // 9
      '  end()', // 10
      'end()', // 11
      'go_async(job)', // 12
      '  addVar(c, 1)', // 13
      'end()', // 14
      'function f(x) {', // 15
      '  return x', // 16
      '}', // 17
    ].join('\n');
    const tree = parseSyntax(src);
    assert.deepEqual(tree.problems, []);
    const [ifBlock, asyncBlock, fn] = tree.body as SyntaxBlock[];
    assert.equal(tree.body.length, 3);
    assert.equal(ifBlock!.block, 'if');
    assert.equal(ifBlock!.opener.line, 1);
    assert.equal(ifBlock!.divider?.line, 5);
    assert.equal(ifBlock!.closer?.line, 11);
    const loop = ifBlock!.body[0] as SyntaxBlock;
    assert.equal(loop.block, 'loop');
    assert.equal(loop.closer?.line, 4);
    const tryBlock = ifBlock!.alternate![0] as SyntaxBlock;
    assert.equal(tryBlock.block, 'try');
    assert.equal(tryBlock.divider?.line, 8);
    assert.equal(tryBlock.closer?.line, 10);
    assert.equal((tryBlock.alternate![0] as Statement).line, 9);
    assert.equal(asyncBlock!.block, 'async');
    assert.equal(fn!.block, 'function');
    assert.equal(fn!.closer?.kind, 'close-brace');
    assert.equal(textOf(tree, fn!.span), tree.source.split('\n').slice(14).join('\n'));
    assert.equal(blocks(tree.body).length, 5);
  });

  it('lets end() close a loop, as the reference does', () => {
    const tree = parseSyntax('startLoop(i, 1, 2)\n  addVar(a, i)\nend()\naddResult(a)');
    const loop = tree.body[0] as SyntaxBlock;
    assert.equal(loop.closer?.line, 3);
    assert.equal(tree.body.length, 2);
  });

  it('recovers: a closer that skips open blocks closes them, stray closers stay, open blocks run to the end', () => {
    const src = [
      'startLoop(i, 1, 2)', // 1
      '  if(i, 1, =)', // 2
      '    addVar(a, i)', // 3
      'endLoop()', // 4: closes the loop and the unclosed if
      'end()', // 5: stray
      'else()', // 6: stray
      'try()', // 7
      '  comandoInexistente()', // 8
      'detail = exception(msg)', // 9
      'addResult(detail)', // 10: inside the handler, which runs to the end
    ].join('\n');
    const tree = parseSyntax(src);
    const codes = tree.problems.map((p) => `${p.code}@${p.line}`);
    assert.deepEqual(codes, ['unclosed-block@2', 'stray-closer@5', 'stray-divider@6', 'unclosed-block@7']);
    const loop = tree.body[0] as SyntaxBlock;
    assert.equal(loop.closer?.line, 4);
    const inner = loop.body[0] as SyntaxBlock;
    assert.equal(inner.closer, undefined);
    const tryBlock = tree.body[3] as SyntaxBlock;
    assert.equal(tryBlock.block, 'try');
    assert.equal(tryBlock.divider?.target?.text, 'detail');
    assert.deepEqual(
      tryBlock.alternate!.map((n) => (n as Statement).line),
      [10],
    );
  });

  it('reports a second else() and a function header without a brace', () => {
    const tree = parseSyntax('if(a, 1, =)\nelse()\nelse()\nend()\nfunction f(a)\naddVar(b, a)\n}');
    assert.deepEqual(
      tree.problems.map((p) => p.code),
      ['duplicate-divider', 'missing-brace'],
    );
    assert.equal(tree.functions[0]!.closer?.line, 7);
  });
});

describe('syntax tree: positions and caching', () => {
  it('converts offsets and positions, with \\n, \\r\\n and \\r line ends', () => {
    const tree = parseSyntax('a = 1\r\nb = 2\rc = 3\nd = 4');
    assert.equal(tree.statements.length, 4);
    const d = statementAt(tree, 4)!;
    assert.deepEqual(positionAt(tree, d.span.start), { line: 3, character: 0 });
    assert.equal(offsetAt(tree, { line: 3, character: 0 }), d.span.start);
    assert.equal(offsetAt(tree, { line: 99, character: 99 }), tree.source.length);
    assert.deepEqual(positionAt(tree, 0), { line: 0, character: 0 });
  });

  it('returns the same tree for the same text', () => {
    const text = 'addVar(a, 1)\naddResult(a)';
    assert.equal(parseSyntax(text), parseSyntax(`${text}`));
    assert.notEqual(parseSyntax(text), parseSyntax(`${text}\n`));
  });

  it('reads every program of the corpus without an unparsed line', () => {
    const dir = path.join(__dirname, '..', '..', 'corpus', 'valid');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.avap'))) {
      const tree = parseSyntax(readFileSync(path.join(dir, file), 'utf8'));
      assertSpansSound(tree);
      const unparsed = tree.statements.filter((s) => s.kind === 'unparsed');
      assert.deepEqual(unparsed, [], file);
      assert.deepEqual(tree.problems, [], file);
    }
  });

  it('never throws and always keeps one statement per line with sound spans', () => {
    const fragments = [
      '(',
      ')',
      '{',
      '}',
      '[',
      ']',
      ',',
      '"',
      "'",
      '`',
      '${',
      '//',
      '/*',
      '*/',
      '#',
      '=',
      ';',
      'if(',
      'end()',
      'else()',
      'endLoop()',
      'startLoop(i, 1, 3)',
      'try()',
      'exception(e)',
      'function f(a) {',
      'return',
      'addVar(a, 1)',
      'x = ',
      '\n',
      '\r',
      '\r\n',
      ' ',
      'é',
      '\u0000',
      '😀',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 40 }), (parts) => {
        const src = parts.join('');
        const tree = parseSyntax(src);
        assert.equal(tree.statements.length, src.split(/\r\n|\r|\n/).length);
        assertSpansSound(tree);
        let count = 0;
        walk(tree.body, (n) => {
          count += n.kind === 'block' ? 1 + (n.divider ? 1 : 0) + (n.closer ? 1 : 0) + (n.brace ? 1 : 0) : 1;
        });
        assert.equal(count, tree.statements.length, 'every statement is in the tree exactly once');
      }),
      { numRuns: 400 },
    );
  });
});
