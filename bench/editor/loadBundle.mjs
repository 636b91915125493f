// Loads one bundle in this fresh Node process and prints how long require() took, in ms (bench/editor runs it).
// `vscode` exists only inside the editor, so a bundle that requires it gets a stand-in whose every name
// (from @types/vscode) answers anything: only loading is measured — reading, compiling and running the
// bundle's top level — never what activation does.
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function anything() {
  const fn = function () {};
  return new Proxy(fn, {
    get: (target, key) => (key in target ? target[key] : anything()),
    apply: () => anything(),
    construct: () => anything(),
  });
}

const declarations = readFileSync(
  path.join(here, '..', '..', 'node_modules', '@types', 'vscode', 'index.d.ts'),
  'utf8',
);
const vscode = {};
for (const [, name] of declarations.matchAll(/^(?:\t| {4})export (?:class|namespace|enum|function|const|let) (\w+)/gm))
  vscode[name] = anything();
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

const file = path.resolve(process.argv[2]);
const require = createRequire(file);
const started = process.hrtime.bigint();
require(file);
process.stdout.write(`${Number(process.hrtime.bigint() - started) / 1e6}\n`);
