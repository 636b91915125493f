/**
 * Candidate fixes are built one per construct (this module and its siblings: branches, loopHeaders,
 * functionHeaders, statements, expressions, braces); each looks only at the tokens it is given (or, through a
 * deferred hint, at the lines below them) and returns nothing when the repair would be a guess: the proof
 * (prove.ts) then decides whether a candidate is offered. Here: a block never closed gets its closer where its
 * indentation ends.
 */
import { closerOf, openerOf, type Block, type BlockKind } from '../blocks';
import { closerAfterBody, indentedBody, type BranchTest, type FixHint } from './candidates';

/** A name, as a regular expression source. */
export const IDENT = '[\\p{L}_][\\p{L}\\p{N}_]*';
const AVAP_ELSE = /^else\s*\(\s*\)/;
const AVAP_EXCEPTION = new RegExp(`^(?:${IDENT}\\s*=\\s*)?exception\\s*\\(`, 'u');

/** Branch lines that belong to an AVAP block of `kind` at its own indentation. */
const AVAP_BRANCHES: Partial<Record<BlockKind, BranchTest>> = {
  if: (line) => (AVAP_ELSE.test(line) ? { length: 0 } : undefined),
  try: (line) => (AVAP_EXCEPTION.test(line) ? { length: 0 } : undefined),
};

/** A block never closed (or not before an outer closer at `limit`): its closer where its indentation ends. */
export function closeBlockFix(block: Block, limit: number): FixHint | undefined {
  const lineStart = block.lineStart;
  if (lineStart === undefined || block.kind === 'brace' || block.braceBody || block.awaitingBrace) return undefined;
  if (block.kind === 'try' && !block.hasHandler) return undefined; // the handler is not mechanical
  const closer = closerOf(block.kind);
  return (ctx) => {
    const body = indentedBody(ctx.src, lineStart, limit, AVAP_BRANCHES[block.kind]);
    if (!body) return undefined;
    return {
      title: `Close ${openerOf(block.kind)} with '${closer}' where its indentation ends`,
      edits: [closerAfterBody(ctx, lineStart, body, closer)],
    };
  };
}
