import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LOG_CLOSED, LOG_HALF_OPEN, LOG_SKIP, LOG_PARSER_UNAVAILABLE } from '../../../src/core';
import { LOG_PREFIX, prefixed, prefixedLogger } from '../../../src/core/ports';
import { memoryLogger } from '../../support/fakes/ports';

const SRC = join(__dirname, '..', '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(name) ? [path] : [];
  });
}

describe('the [ptvl] prefix is added in one place', () => {
  it("the design's lines are printed byte for byte from their constants", () => {
    // Written out here on purpose: the design fixes these lines, so they are pinned literally once.
    assert.equal(prefixed(LOG_SKIP), '[ptvl] circuit OPEN — skipping parser, returning unvalidated');
    assert.equal(prefixed(LOG_HALF_OPEN), '[ptvl] circuit HALF-OPEN — probing parser availability');
    assert.equal(prefixed(LOG_CLOSED), '[ptvl] circuit CLOSED — parser reachable');
    assert.equal(prefixed(LOG_PARSER_UNAVAILABLE), '[ptvl] parser unavailable — returning unvalidated');
  });

  it("prefixedLogger adds the prefix once per line, at the line's level", () => {
    const written: [string, string][] = [];
    const logger = prefixedLogger((line, level) => written.push([level, line]));
    logger.info(LOG_CLOSED);
    logger.warn(LOG_SKIP);
    assert.deepEqual(written, [
      ['info', prefixed(LOG_CLOSED)],
      ['warn', prefixed(LOG_SKIP)],
    ]);
    const memory = memoryLogger();
    memory.info('x');
    assert.deepEqual(memory.lines, [`${LOG_PREFIX} x`]);
  });

  it('no source file writes the prefix into a message (only ports.ts defines it)', () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !file.endsWith(join('core', 'ports.ts')))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ file, line, n: i + 1 })),
      )
      // A string or template literal that starts with the prefix and a space: a message written with it
      // (comments name the prefix in backticks, `[ptvl]`, and are not code).
      .filter(({ line }) => !/^\s*(\*|\/\*|\/\/)/.test(line) && /['"`]\[ptvl\] /.test(line))
      .map(({ file, n, line }) => `${relative(SRC, file)}:${n}: ${line.trim()}`);
    assert.deepEqual(offenders, []);
  });
});
