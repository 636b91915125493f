// Bundles the extension, the CLI and the parser service into dist/.
// Usage: node esbuild.config.mjs [--watch] [--minify]
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');
const outdir = path.join(root, 'dist');

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
        .replace("path.resolve(__dirname, '../../proto/health/v1/health.proto')",
          "path.resolve(__dirname, 'proto/health/v1/health.proto')");
      if (patched === source) {
        throw new Error('grpc-health-check changed its proto loading; update esbuild.config.mjs');
      }
      return { contents: patched, loader: 'js' };
    });
  },
};

function copyProtos() {
  const protoOut = path.join(outdir, 'proto');
  mkdirSync(path.join(protoOut, 'health', 'v1'), { recursive: true });
  cpSync(path.join(root, 'src', 'proto', 'avap_parser.proto'), path.join(protoOut, 'avap_parser.proto'));
  const healthPkg = path.dirname(require.resolve('grpc-health-check/package.json'));
  cpSync(path.join(healthPkg, 'proto', 'health', 'v1', 'health.proto'),
    path.join(protoOut, 'health', 'v1', 'health.proto'));
}

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify,
  logLevel: 'warning',
  plugins: [healthProtoPlugin],
  // protobufjs probes for optional modules with an eval'd require; that is expected.
  logOverride: { 'direct-eval': 'silent' },
};

const entries = [
  { entryPoints: { extension: 'src/extension.ts' }, external: ['vscode'] },
  { entryPoints: { cli: 'src/cli/main.ts' } },
  { entryPoints: { 'parser-server': 'src/server/main.ts' } },
  // One parser thread of the service's worker pool (started by parser-server.js).
  { entryPoints: { 'parser-worker': 'src/server/worker.ts' } },
  // The parser library alone, exactly as the service runs it (used by the benchmark).
  { entryPoints: { parser: 'src/parser/index.ts' } },
];

async function main() {
  if (!watch) rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  copyProtos();
  const contexts = await Promise.all(entries.map((entry) =>
    esbuild.context({ ...common, ...entry, outdir, external: [...(entry.external ?? [])] })));
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    console.log('[esbuild] watching for changes');
    return;
  }
  await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
