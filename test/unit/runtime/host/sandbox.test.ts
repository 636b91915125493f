/**
 * What a run can reach: the interpreter (src/runtime outside host/) imports no Node module that opens files,
 * starts processes, talks to the network or evaluates code — its only way out is its ports — and the run worker
 * holds the interpreter and the sandbox's ports, and is started with nothing of the host's (environment,
 * arguments, inherited output). Read from the sources, so a new import that breaks this fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const RUNTIME = path.resolve(__dirname, '..', '..', '..', '..', 'src', 'runtime');
const REACHING =
  /^(?:fs|fs\/promises|child_process|net|http|https|http2|dgram|dns|tls|vm|worker_threads|cluster|module|inspector|process|os)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'host' ? [] : sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
}

describe('runtime host: what a run can reach', () => {
  it('the interpreter imports no module that reaches files, processes, the network or code evaluation', () => {
    const files = sources(RUNTIME);
    assert.ok(files.length > 10);
    for (const file of files) {
      for (const spec of imports(file)) {
        const builtin = spec.replace(/^node:/, '');
        if (spec.startsWith('.')) continue;
        assert.ok(!REACHING.test(builtin), `${path.relative(RUNTIME, file)} imports ${spec}`);
        assert.ok(spec.startsWith('node:'), `${path.relative(RUNTIME, file)} imports the package ${spec}`);
      }
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /\beval\s*\(|new Function\s*\(|process\.env/, path.relative(RUNTIME, file));
    }
  });

  it('the run worker takes the interpreter and the sandbox ports only', () => {
    const worker = path.join(RUNTIME, 'host', 'worker.ts');
    assert.deepEqual(imports(worker).sort(), [
      '..',
      './clockRandom',
      './database',
      './httpPort',
      './protocol',
      'node:worker_threads',
    ]);
  });

  it('the pool starts each worker with no environment, arguments or output of the host, and a heap cap', () => {
    const pool = readFileSync(path.join(RUNTIME, 'host', 'pool.ts'), 'utf8');
    const options = /new Worker\(this\.script, \{([\s\S]*?)\n {4}\}\);/.exec(pool)?.[1] ?? '';
    for (const line of ['env: {}', 'argv: []', 'execArgv: []', 'stdout: true', 'stderr: true', 'resourceLimits: {'])
      assert.ok(options.includes(line), `the worker options have ${line}`);
  });
});
