/**
 * The runtime's host: the sandbox around the interpreter. Runs go through a worker pool with step, wall-time and
 * memory budgets, cancellable (pool.ts); a run's I/O goes through the sandbox's ports — recorded or allowed HTTP
 * (httpFixtures.ts, httpPort.ts), an embedded PostgreSQL fresh per run (database.ts), a clock and a generator a
 * test can fix (clockRandom.ts).
 */
export { createRunPool, DEFAULT_LIMITS } from './pool';
export type { RunPool, RunPoolOptions, RunJob } from './pool';
export type { SandboxSpec } from './protocol';
export {
  parseFixtures,
  checkFixtures,
  parseAllowList,
  parseAllowedHost,
  hostAllowed,
  findFixture,
  normalizeUrl,
} from './httpFixtures';
export type { HttpFixture, AllowedHost } from './httpFixtures';
export { createSandboxHttp } from './httpPort';
export { SandboxDatabase } from './database';
export { createClock, createRandom, parseNow, parseSeed } from './clockRandom';
export type { RunRequest, RunResult, RunError, PortabilityNote } from '..';
export { caseFromData, caseSandbox, caseFailures, subsetMismatch } from './cases';
export type { TestCase, BadCase } from './cases';
