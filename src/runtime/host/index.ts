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
  /** @internal */ checkFixtures,
  parseAllowList,
  /** @internal */ parseAllowedHost,
  /** @internal */ hostAllowed,
  /** @internal */ findFixture,
  /** @internal */ normalizeUrl,
} from './httpFixtures';
export type { HttpFixture, AllowedHost } from './httpFixtures';
export { /** @internal */ createSandboxHttp } from './httpPort';
export { /** @internal */ SandboxDatabase } from './database';
export { /** @internal */ createClock, /** @internal */ createRandom, parseNow, parseSeed } from './clockRandom';
export type { RunRequest, RunResult, RunError, PortabilityNote } from '..';
export { caseFromData, caseSandbox, caseFailures, /** @internal */ subsetMismatch } from './cases';
export type { TestCase, BadCase } from './cases';
