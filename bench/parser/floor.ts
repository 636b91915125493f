/**
 * The floor: the least any AVAP checker must do with the same bytes —
 * split the lines, match `name(args)` on each with a regex, split the arguments
 * on commas. It checks nothing; it only says what touching every byte costs.
 * Returns a count so the work cannot be optimised away.
 */
const LINE_CALL_RE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$/;
export function regexLineScan(source: string): number {
  let args = 0;
  for (const line of source.split('\n')) {
    const match = LINE_CALL_RE.exec(line);
    if (match) args += (match[2] as string).split(',').length;
  }
  return args;
}
