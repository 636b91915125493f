// Bundles the extension, the CLI and the parser service into dist/.
// Usage: node esbuild.config.mjs [--watch] [--minify] [--production] [--outdir DIR]
//   --production: what the .vsix ships (`vscode:prepublish`): minified, no source maps.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const watch = argv.includes('--watch');
const production = argv.includes('--production');
const minify = production || argv.includes('--minify');
const outdirArg = argv.indexOf('--outdir');
const outdir = outdirArg >= 0 && argv[outdirArg + 1] ? path.resolve(argv[outdirArg + 1]) : path.join(root, 'dist');

/**
 * grpc-health-check loads its .proto from `${__dirname}/../../proto`, which is
 * only right inside node_modules. In a bundle __dirname is dist/, so point it at
 * the copy we place in dist/proto (see copyProtos).
 */
const healthProtoPlugin = {
  name: 'grpc-health-check-proto',
  setup(build) {
    build.onLoad({ filter: /grpc-health-check[\\/]build[\\/]src[\\/]health\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const patched = source
        .replace('`${__dirname}/../../proto`', 'require("path").join(__dirname, "proto")')
        .replace(
          "path.resolve(__dirname, '../../proto/health/v1/health.proto')",
          "path.resolve(__dirname, 'proto/health/v1/health.proto')",
        );
      if (patched === source) {
        throw new Error('grpc-health-check changed its proto loading; update esbuild.config.mjs');
      }
      return { contents: patched, loader: 'js' };
    });
  },
};

/**
 * The editor's lazy bundles. The extension entry (dist/extension.js) holds only
 * what activation registers; a module listed here is built as its own bundle,
 * and a dynamic `import()` of it from another bundle stays a run-time
 * `require('./NAME.js')` of that bundle (see src/editor/lazy/lazyBundle.ts).
 * A static import of it is bundled as usual — test/unit/build/bundles.test.ts
 * keeps each bundle free of what another holds.
 */
export const LAZY_BUNDLES = {
  // What an opened .avap file needs (diagnostics, the status item, quick fixes, hover…): started right after activate() returns.
  'editor-features': 'src/editor/features/main.ts',
  // The gRPC stack of the parser connection (grpc-js, the wire codecs, the breaker): loaded on the first connect.
  'parser-connection': 'src/editor/services/parserStack.ts',
  // The assistant: Ollama, retrieval (Elasticsearch, the embedded index), markdown, the judge, signals, metrics.
  assistant: 'src/editor/assistant/main.ts',
  // The language features (src/language, the syntax tree, the parser they check renames with): on the first request.
  'language-features': 'src/editor/language/providers.ts',
  // Running AVAP (AVAP: Run File, the Testing view's runs): the sandbox's worker pool, the result view, values in the
  // code. Loaded on the first run; its workers (dist/runtime-worker.js) hold the interpreter and PGlite.
  runner: 'src/editor/run/runner.ts',
};

const lazyBundlesPlugin = {
  name: 'lazy-bundles',
  setup(build) {
    const byFile = new Map(Object.entries(LAZY_BUNDLES).map(([name, file]) => [path.join(root, file), name]));
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      // TypeScript spells a dynamic import of ./x.ts as './x.js'.
      const target = path.resolve(args.resolveDir, args.path).replace(/\.js$/, '');
      const name = byFile.get(`${target}.ts`);
      return name ? { path: `./${name}.js`, external: true } : undefined;
    });
  },
};

/**
 * `import * as vscode from 'vscode'` in each editor module makes esbuild copy
 * the whole editor API onto a fresh namespace object per module when the
 * bundle loads (a dozen copies of a few hundred names in the entry). One shim
 * module re-exports the API once and every module shares it.
 */
const vscodeOncePlugin = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({
      contents: "export * from 'vscode';",
      loader: 'js',
      resolveDir: root,
    }));
  },
};

function copyProtos() {
  const protoOut = path.join(outdir, 'proto');
  mkdirSync(path.join(protoOut, 'health', 'v1'), { recursive: true });
  cpSync(path.join(root, 'src', 'proto', 'avap_parser.proto'), path.join(protoOut, 'avap_parser.proto'));
  const healthPkg = path.dirname(require.resolve('grpc-health-check/package.json'));
  cpSync(
    path.join(healthPkg, 'proto', 'health', 'v1', 'health.proto'),
    path.join(protoOut, 'health', 'v1', 'health.proto'),
  );
}

/**
 * Options every bundle shares. `production` is what the .vsix ships:
 * minified, without source maps.
 * @returns {esbuild.BuildOptions}
 */
export function commonOptions({ production: prod = false, minify: min = prod } = {}) {
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: !prod,
    minify: min,
    logLevel: 'warning',
    plugins: [healthProtoPlugin, lazyBundlesPlugin, vscodeOncePlugin],
    // protobufjs probes for optional modules with an eval'd require; that is expected.
    logOverride: { 'direct-eval': 'silent' },
  };
}

/**
 * Packages a bundle leaves out because nothing it runs loads them. The parser
 * connection talks gRPC through hand-written codecs (src/protocol/wire.ts) and
 * reads no .proto; grpc-js requires @grpc/proto-loader (and with it protobufjs)
 * only inside its channelz and ORCA services, which a client with our
 * balancing never starts (and whose .proto files a bundle does not carry anyway).
 * test/unit/build/bundles.test.ts checks what the bundle holds and loads.
 */
const LEFT_OUT = {
  'parser-connection': ['@grpc/proto-loader'],
};

/**
 * Packages a bundle carries only if it calls them: the runner starts the sandbox's pool, whose workers
 * (dist/runtime-worker.js) run PGlite; the runner's own thread never does, but the sandbox's index also exports
 * the database adapter. Marked free of side effects here, an unused import of them is dropped rather than
 * loading ~650 KB of PGlite's JavaScript into the extension host on the first run.
 * test/unit/build/bundles.test.ts checks the runner holds none of it.
 */
const WORKERS_ONLY = {
  runner: /^@electric-sql\/pglite(\/|$)/,
};

function workersOnlyPlugin(filter) {
  return {
    name: 'workers-only',
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData === 'workers-only') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'workers-only',
        });
        return { ...resolved, sideEffects: false };
      });
    },
  };
}

/**
 * The editor's bundles. A lazy bundle is loaded with require() (esbuild turns
 * the dynamic import into one), as the extension host loads CommonJS modules.
 */
const editorBundle = (name, file) => ({
  entryPoints: { [name]: file },
  external: ['vscode', ...(LEFT_OUT[name] ?? [])],
  supported: { 'dynamic-import': false },
  ...(WORKERS_ONLY[name] ? { plugins: [...commonOptions().plugins, workersOnlyPlugin(WORKERS_ONLY[name])] } : {}),
});

export const entries = [
  editorBundle('extension', 'src/extension.ts'),
  ...Object.entries(LAZY_BUNDLES).map(([name, file]) => editorBundle(name, file)),
  { entryPoints: { cli: 'src/cli/main.ts' } },
  { entryPoints: { 'parser-server': 'src/server/main.ts' } },
  // One parser thread of the service's worker pool (started by parser-server.js).
  { entryPoints: { 'parser-worker': 'src/server/worker.ts' } },
  // One thread of the AVAP runtime's run pool (started by the CLI and the REST server; src/runtime/host/pool.ts).
  // PGlite is an ES module that reads import.meta.url (Emscripten's createRequire); a CommonJS bundle gives it its own URL.
  {
    entryPoints: { 'runtime-worker': 'src/runtime/host/worker.ts' },
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  },
  // The parser library alone, exactly as the service runs it (used by the benchmark).
  { entryPoints: { parser: 'src/parser/index.ts' } },
];

/**
 * In watch mode: one "[watch] build started" when the first bundle starts rebuilding and one "[watch] build
 * finished" when the last is done, with each error as "✘ [ERROR] text" and its "    file:line:column:" — the
 * lines the `watch` task's problem matcher in .vscode/tasks.json reads (F5 waits for "finished").
 */
let building = 0;
export const WATCH_STARTED = '[watch] build started';
export const WATCH_FINISHED = '[watch] build finished';
const watchReporterPlugin = {
  name: 'watch-reporter',
  setup(build) {
    build.onStart(() => {
      if (building++ === 0) console.log(WATCH_STARTED);
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (--building === 0) console.log(WATCH_FINISHED);
    });
  },
};

/**
 * PGlite's WebAssembly and file bundle, read by the runtime host (src/runtime/host/assets.ts) and handed to its
 * workers compiled: the bundles carry PGlite's JavaScript, these are its data.
 */
function copyPglite() {
  const from = path.dirname(require.resolve('@electric-sql/pglite'));
  const to = path.join(outdir, 'pglite');
  mkdirSync(to, { recursive: true });
  for (const file of ['pglite.wasm', 'initdb.wasm', 'pglite.data']) cpSync(path.join(from, file), path.join(to, file));
}

async function main() {
  if (!watch) rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  copyProtos();
  copyPglite();
  const contexts = await Promise.all(
    entries.map((entry) =>
      esbuild.context({
        ...commonOptions({ production, minify }),
        ...entry,
        outdir,
        external: [...(entry.external ?? [])],
        ...(watch ? { plugins: [...(entry.plugins ?? commonOptions().plugins), watchReporterPlugin] } : {}),
      }),
    ),
  );
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    console.log('[esbuild] watching for changes');
    return;
  }
  await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
}

// Imported (by tests that inspect the bundles) it only exports the configuration.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
