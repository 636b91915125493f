/**
 * The extension's bundles, built with the project's own esbuild configuration
 * (ARCHITECTURE.md, light entries): the entry holds only what activation registers; what an opened
 * .avap file needs is the editor features bundle, started right after
 * activation, which reaches the parser connection's gRPC stack through a lazy
 * bundle of its own; the assistant is a lazy bundle too;
 * production bundles are minified and carry no source maps. Inspects what
 * esbuild puts in each bundle (its metafile), never how long anything takes.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..', '..');

interface BuildConfig {
  commonOptions(options?: { production?: boolean }): esbuild.BuildOptions;
  entries: (esbuild.BuildOptions & { entryPoints: Record<string, string> })[];
  LAZY_BUNDLES: Record<string, string>;
}

async function loadConfig(): Promise<{ config: BuildConfig; esbuild: typeof esbuild }> {
  const config = (await import(pathToFileURL(path.join(root, 'esbuild.config.mjs')).href)) as BuildConfig;
  return { config, esbuild: await import('esbuild') };
}

interface Built {
  inputs: string[];
  /** The inputs that put code into the bundle (an import whose code was all left out adds none). */
  emitted: string[];
  text: string;
  files: string[];
}

async function build(name: string, production = false): Promise<Built> {
  const { config, esbuild: esb } = await loadConfig();
  const entry = config.entries.find((e) => Object.keys(e.entryPoints).includes(name));
  assert.ok(entry, `no bundle named ${name} in esbuild.config.mjs`);
  const result = await esb.build({
    ...config.commonOptions({ production }),
    ...entry,
    absWorkingDir: root,
    outdir: path.join(root, 'out', 'bundle-test'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith(`${name}.js`));
  assert.ok(js);
  const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint !== undefined);
  return {
    inputs: Object.keys(result.metafile.inputs),
    emitted: Object.entries(output?.inputs ?? {})
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([file]) => file),
    text: js.text,
    files: result.outputFiles.map((f) => path.basename(f.path)),
  };
}

describe('extension bundles (esbuild.config.mjs)', function () {
  this.timeout(120_000);
  let entry: Built;

  before(async () => {
    entry = await build('extension');
  });

  it('the entry bundle holds no npm package: no Elasticsearch client, markdown-it, Ollama client, zod or gRPC stack', () => {
    const packages = entry.inputs.filter((f) => f.includes('node_modules/'));
    assert.deepEqual(packages, [], 'dependencies of the entry');
  });

  it('the entry holds only activation: the stand-ins, the assistant seam and the output', () => {
    const activation = [
      'src/extension.ts',
      'src/editor/index.ts',
      'src/editor/activate.ts',
      'src/editor/commandIds.ts',
      // The command table, declared editor-free (the manifest is generated from it): the stand-ins need its ids.
      'src/surface/commands.ts',
      'src/editor/lazy/lazyBundle.ts',
      'src/editor/lazy/lazyModule.ts',
      'src/editor/assistant/seam.ts',
      'src/editor/assistant/ids.ts',
      'src/editor/output/outputLog.ts',
      'src/core/ports.ts',
      'vscode-once:vscode',
    ];
    assert.deepEqual(
      entry.inputs.filter((f) => !activation.includes(f)),
      [],
      'modules that belong to the editor features or the assistant',
    );
  });

  it('the editor features hold what an opened .avap file needs, and no assistant code: pipeline, knowledge base, judge, signals, REST, chat, generation, metrics', async () => {
    const features = await build('editor-features');
    for (const needed of [
      'src/editor/diagnostics/diagnosticsController.ts',
      'src/editor/status/statusBar.ts',
      'src/editor/services/configuredParser.ts',
      'src/editor/language/languageFeatures.ts',
    ]) {
      assert.ok(features.inputs.includes(needed), `${needed} is in the editor features`);
    }
    assert.deepEqual(
      features.inputs.filter((f) => f.includes('node_modules/')),
      [],
      'dependencies of the editor features',
    );
    const assistantSide = [
      // The parser URL check is the one pure protocol/core piece the features need (the settings reader checks avap.parser.url).
      /^src\/(knowledge|quality|signals|rest|eval|tools|server|cli)\//,
      /^src\/protocol\/(?!parserUrl\.ts$)/,
      /^src\/core\/(?!ports\.ts$|contracts\.ts$|parser\/url\.ts$)/,
      /^src\/editor\/(chat|metrics)\//,
      /^src\/editor\/services\/(assistantService|parserStack)\.ts$/,
      /^src\/editor\/generate\/generateCommands\.ts$/,
      /^src\/editor\/tools\//,
      /^src\/editor\/assistant\/main\.ts$/,
    ];
    const misplaced = features.inputs.filter((f) => assistantSide.some((re) => re.test(f)));
    assert.deepEqual(misplaced, [], 'modules that belong to a lazy bundle');
  });

  it('the assistant holds no run pool and no embedded database: the evaluation it reaches judges cases with runtime/host/cases alone', async () => {
    const assistant = await build('assistant');
    assert.ok(assistant.inputs.includes('src/eval/functional.ts'), 'the report view reaches the evaluation');
    assert.deepEqual(
      assistant.inputs.filter(
        (f) =>
          f.includes('@electric-sql/pglite') ||
          /^src\/runtime\/(?!host\/(cases|clockRandom|httpFixtures)\.ts$)/.test(f),
      ),
      [],
    );
  });

  it('the entry loads the editor features and the assistant, the features the parser connection, each a bundle of its own with require()', async () => {
    const { config } = await loadConfig();
    assert.deepEqual(Object.keys(config.LAZY_BUNDLES).sort(), [
      'assistant',
      'editor-features',
      'language-features',
      'parser-connection',
      'runner',
    ]);
    for (const name of ['editor-features', 'assistant']) {
      assert.match(
        entry.text,
        new RegExp(`require\\("\\./${name}\\.js"\\)`),
        `dist/extension.js requires ./${name}.js`,
      );
    }
    const features = await build('editor-features');
    assert.match(
      features.text,
      /require\("\.\/parser-connection\.js"\)/,
      'dist/editor-features.js requires ./parser-connection.js',
    );
    assert.match(
      features.text,
      /require\("\.\/language-features\.js"\)/,
      'dist/editor-features.js requires ./language-features.js',
    );
    assert.match(features.text, /require\("\.\/runner\.js"\)/, 'dist/editor-features.js requires ./runner.js');
  });

  it('the language features are a bundle of their own: the editor features register them and hold none of their implementation', async () => {
    const features = await build('editor-features');
    assert.ok(features.inputs.includes('src/editor/language/languageFeatures.ts'), 'the registrations');
    const implementation = features.inputs.filter(
      (f) =>
        /^src\/(syntax|language)\//.test(f) && f !== 'src/language/diagnostics.ts' && f !== 'src/language/legend.ts',
    );
    assert.deepEqual(implementation, [], 'language implementation in the editor features');
    // The parser's index is imported for a few pieces (fixAll, renderEntry); its analyzer is not bundled.
    assert.doesNotMatch(features.text, /var Analyzer = class/, 'the parser’s analyzer is not in the editor features');
    const language = await build('language-features');
    assert.doesNotMatch(
      language.text,
      /var Analyzer = class/,
      'the language features read the syntax tree, not the analyzer',
    );
    for (const needed of [
      'src/editor/language/providers.ts',
      'src/language/symbols.ts',
      'src/language/format.ts',
      'src/syntax/index.ts',
    ])
      assert.ok(language.inputs.includes(needed), `${needed} is in the language features bundle`);
    assert.deepEqual(
      language.inputs.filter((f) => f.includes('node_modules/')),
      [],
      'dependencies of the language features',
    );
  });

  it('running AVAP: the features list tests and offer the commands with no runtime; the runner holds the pool, not the interpreter or PGlite', async () => {
    const features = await build('editor-features');
    for (const needed of ['src/editor/run/register.ts', 'src/editor/run/testsView.ts', 'src/runs/outline.ts'])
      assert.ok(features.inputs.includes(needed), `${needed} is in the editor features`);
    assert.deepEqual(
      features.inputs.filter((f) =>
        /^src\/(runtime|runs\/(?!outline\.ts$|jsonTree\.ts$))|^src\/editor\/run\/(runner|resultView|runPool|testRunner|valueDecorations)\.ts$/.test(
          f,
        ),
      ),
      [],
      'the runtime and the runner stay out of the editor features',
    );
    const runner = await build('runner');
    for (const needed of ['src/runtime/host/pool.ts', 'src/editor/run/runner.ts', 'src/editor/run/resultView.ts'])
      assert.ok(runner.inputs.includes(needed), `${needed} is in the runner`);
    assert.deepEqual(
      runner.emitted.filter((f) => f.includes('node_modules/')),
      [],
      'no package in the runner: PGlite runs in the workers (dist/runtime-worker.js), never on its thread',
    );
    assert.doesNotMatch(runner.text, /class PGlite\b/, "no PGlite code in the runner's text");
    assert.deepEqual(
      runner.emitted.filter((f) => /^src\/runtime\/(?!host\/)|^src\/runtime\/host\/worker\.ts$/.test(f)),
      [],
      'the interpreter stays in the workers (the runner only sends them programs)',
    );
  });

  it('the lazy bundles hold what the entry leaves out', async () => {
    const assistant = await build('assistant');
    for (const pkg of ['@elastic/elasticsearch', 'markdown-it', 'ollama']) {
      assert.ok(
        assistant.inputs.some((f) => f.includes(`node_modules/${pkg}/`)),
        `${pkg} is in the assistant bundle`,
      );
    }
    const connection = await build('parser-connection');
    assert.ok(
      connection.inputs.some((f) => f.includes('node_modules/@grpc/grpc-js/')),
      'grpc-js is in the parser connection bundle',
    );
    assert.ok(
      !connection.inputs.some((f) => f.includes('node_modules/@elastic/')),
      'the parser connection does not carry the assistant',
    );
  });

  it('the parser connection reflects no .proto: no protobufjs, proto-loader or grpc-health-check, and no child_process until the bundled service starts', async () => {
    const connection = await build('parser-connection', true);
    const reflection = connection.inputs.filter((f) =>
      /node_modules\/(protobufjs|@protobufjs|@grpc\/proto-loader|grpc-health-check|long)\//.test(f),
    );
    assert.deepEqual(reflection, [], 'run-time .proto reflection in the parser connection');
    assert.ok(connection.inputs.includes('src/protocol/wire.ts'), 'the hand-written codecs are in the bundle');
    // Load it in a fresh process and list the modules that loading it brought in (a fact, not a time).
    const dir = mkdtempSync(path.join(tmpdir(), 'avap-bundle-'));
    try {
      writeFileSync(path.join(dir, 'parser-connection.js'), connection.text);
      const loaded = execFileSync(
        process.execPath,
        [
          '-e',
          [
            `const before = new Set(process.moduleLoadList);`,
            `const m = require(${JSON.stringify(path.join(dir, 'parser-connection.js'))});`,
            `if (typeof m.openParserConnection !== 'function') throw new Error('no openParserConnection');`,
            `process.stdout.write(JSON.stringify(process.moduleLoadList.filter((x) => !before.has(x))));`,
          ].join('\n'),
        ],
        { encoding: 'utf8' },
      );
      const modules = JSON.parse(loaded) as string[];
      assert.ok(modules.includes('NativeModule http2'), `grpc-js is loaded: ${loaded}`);
      assert.deepEqual(
        modules.filter((m) => /child_process/.test(m)),
        [],
        'child_process is loaded only to start the bundled service',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('production bundles are minified and carry no source map', async () => {
    const production = await build('extension', true);
    assert.deepEqual(production.files, ['extension.js'], 'no .map next to the bundle');
    assert.doesNotMatch(production.text, /sourceMappingURL/);
    assert.doesNotMatch(production.text, /^\/\/ src\//m, 'no module path comments (minified)');
    assert.ok(
      production.text.length < entry.text.length * 0.8,
      `minified: ${production.text.length} vs ${entry.text.length} bytes`,
    );
    assert.ok(entry.files.includes('extension.js.map'), 'the development build keeps its source map');
  });
});
