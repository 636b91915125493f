/**
 * Nests the statements into blocks, with recovery: a closer that skips over
 * open blocks closes them (each reported as unclosed), a closer or divider
 * with nothing to close stays in place as a statement (reported), and blocks
 * still open at the end of the file run to its end.
 */
import type {
  BlockKind,
  BraceStatement,
  CallStatement,
  FunctionStatement,
  Span,
  Statement,
  SyntaxBlock,
  SyntaxNode,
  SyntaxProblem,
  SyntaxProblemCode,
} from './types';

interface OpenBlock {
  block: BlockKind;
  opener: CallStatement | FunctionStatement;
  body: SyntaxNode[];
  divider?: CallStatement;
  alternate?: SyntaxNode[];
  brace?: BraceStatement;
  /** A function header without `{`: the next line may hold it. */
  awaitingBrace?: boolean;
}

const OPENERS: Readonly<Record<string, BlockKind>> = {
  'open-if': 'if',
  'open-loop': 'loop',
  'open-try': 'try',
  'open-async': 'async',
};

const LABEL: Readonly<Record<BlockKind, string>> = {
  if: 'if()',
  loop: 'startLoop()',
  try: 'try()',
  async: 'go_async()',
  function: 'function',
};

const CLOSER: Readonly<Record<BlockKind, string>> = {
  if: 'end()',
  loop: 'endLoop()',
  try: 'end()',
  async: 'end()',
  function: '}',
};

export interface Nested {
  body: SyntaxNode[];
  functions: SyntaxBlock[];
  problems: SyntaxProblem[];
}

function endOf(node: SyntaxNode): number {
  return node.span.end;
}

export function nest(statements: readonly Statement[]): Nested {
  const top: SyntaxNode[] = [];
  const stack: OpenBlock[] = [];
  const functions: SyntaxBlock[] = [];
  const problems: SyntaxProblem[] = [];

  const problem = (code: SyntaxProblemCode, s: { line: number; span: Span }, message: string): void => {
    problems.push({ code, line: s.line, span: s.span, message });
  };
  const current = (): SyntaxNode[] => {
    const open = stack[stack.length - 1];
    if (!open) return top;
    return open.alternate ?? open.body;
  };
  const close = (closer: Statement | undefined): SyntaxBlock => {
    const open = stack.pop() as OpenBlock;
    const lastNodes = open.alternate ?? open.body;
    const lastNode = lastNodes[lastNodes.length - 1];
    const end = closer
      ? closer.span.end
      : lastNode
        ? endOf(lastNode)
        : (open.divider?.span.end ?? open.brace?.span.end ?? open.opener.span.end);
    const block: SyntaxBlock = {
      kind: 'block',
      block: open.block,
      opener: open.opener,
      body: open.body,
      ...(open.divider ? { divider: open.divider, alternate: open.alternate ?? [] } : {}),
      ...(closer ? { closer } : {}),
      ...(open.brace ? { brace: open.brace } : {}),
      span: { start: open.opener.span.start, end },
    };
    if (block.block === 'function') functions.push(block);
    current().push(block);
    return block;
  };
  /** Closes every block above index `keep` as unclosed, reporting each. */
  const closeAbove = (keep: number, at: Statement): void => {
    while (stack.length - 1 > keep) {
      const open = stack[stack.length - 1] as OpenBlock;
      problem(
        'unclosed-block',
        open.opener,
        `${label(open)} opened on line ${open.opener.line} is not closed before line ${at.line} — add ${CLOSER[open.block]}`,
      );
      close(undefined);
    }
  };
  /** Index of the nearest open block of `kind`, not looking past a function body. */
  const find = (kind: BlockKind): number => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const b = stack[i] as OpenBlock;
      if (b.block === kind) return i;
      if (b.block === 'function') return -1;
    }
    return -1;
  };

  for (const s of statements) {
    const awaiting = stack[stack.length - 1];
    if (awaiting?.awaitingBrace && s.kind !== 'blank' && s.kind !== 'comment') {
      awaiting.awaitingBrace = false;
      if (s.kind === 'open-brace') {
        awaiting.brace = s;
        continue;
      }
      problem('missing-brace', awaiting.opener, `function '${label(awaiting)}' needs '{' to open its body`);
    }
    if (s.kind === 'function') {
      if (stack.length > 0) problem('nested-function', s, `function '${s.name.text}' is defined inside another block`);
      stack.push({ block: 'function', opener: s, body: [], awaitingBrace: s.brace === undefined });
      continue;
    }
    if (s.kind === 'close-brace') {
      const i = find('function');
      if (i === -1) {
        problem('stray-closer', s, "'}' without an open function body");
        current().push(s);
      } else {
        closeAbove(i, s);
        close(s);
      }
      continue;
    }
    if (s.kind !== 'call' || s.role === undefined) {
      if (s.kind === 'unparsed') problem('unparsed-line', s, s.reason);
      current().push(s);
      continue;
    }
    const opens = OPENERS[s.role];
    if (opens !== undefined) {
      stack.push({ block: opens, opener: s, body: [] });
      continue;
    }
    switch (s.role) {
      case 'else':
      case 'exception': {
        const kind: BlockKind = s.role === 'else' ? 'if' : 'try';
        const i = find(kind);
        if (i === -1) {
          problem('stray-divider', s, `${s.name.text}() outside a ${LABEL[kind]} block`);
          current().push(s);
          break;
        }
        closeAbove(i, s);
        const open = stack[i] as OpenBlock;
        if (open.divider) {
          problem(
            'duplicate-divider',
            s,
            `second ${s.name.text}() for the ${LABEL[kind]} opened on line ${open.opener.line}`,
          );
          current().push(s);
          break;
        }
        open.divider = s;
        open.alternate = [];
        break;
      }
      case 'end': {
        const open = stack[stack.length - 1];
        if (!open || open.block === 'function') {
          problem('stray-closer', s, 'end() without an open if(), try(), go_async() or startLoop() block');
          current().push(s);
          break;
        }
        close(s);
        break;
      }
      case 'end-loop': {
        const i = find('loop');
        if (i === -1) {
          problem('stray-closer', s, 'endLoop() without a matching startLoop()');
          current().push(s);
          break;
        }
        closeAbove(i, s);
        close(s);
        break;
      }
      default:
        current().push(s);
    }
  }
  while (stack.length > 0) {
    const open = stack[stack.length - 1] as OpenBlock;
    problem('unclosed-block', open.opener, `${label(open)} opened here is never closed — add ${CLOSER[open.block]}`);
    close(undefined);
  }
  return { body: top, functions, problems };
}

function label(open: OpenBlock): string {
  return open.block === 'function' && open.opener.kind === 'function' ? open.opener.name.text : LABEL[open.block];
}
