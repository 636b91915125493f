import { coreSuite } from './core';
import { editorSuite } from './editor';
import { languageSuite } from './language';
import { parserSuite } from './parser';
import { runtimeSuite } from './runtime';
import { interpreterSuite } from './runtime/interpreter';
import { serviceSuite } from './service';
import type { BenchSuite } from './types';

/** Every benchmark suite, in the order `npm run bench` runs them (`npm run bench -- NAME` runs one). */
export const BENCH_SUITES: readonly BenchSuite[] = [
  parserSuite,
  languageSuite,
  serviceSuite,
  coreSuite,
  editorSuite,
  interpreterSuite,
  runtimeSuite,
];
