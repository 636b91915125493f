/**
 * What the .vsix ships: vsce's own file listing, under the
 * project's package.json and .vscodeignore, over a copy of the repository's
 * layout with a development build in dist/ (bundles and their source maps).
 * Every bundle esbuild.config.mjs builds is packed; no source map, source,
 * test or dependency folder is.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createVSIX, listFiles, PackageManager } from '@vscode/vsce';

const root = path.resolve(__dirname, '..', '..', '..');

describe('the packaged extension (.vsix)', function () {
  this.timeout(60_000);
  let dir: string;
  let bundles: string[];

  before(async () => {
    const config = (await import(pathToFileURL(path.join(root, 'esbuild.config.mjs')).href)) as {
      entries: { entryPoints: Record<string, string> }[];
    };
    bundles = config.entries.flatMap((e) => Object.keys(e.entryPoints)).map((name) => `dist/${name}.js`);
    dir = mkdtempSync(path.join(os.tmpdir(), 'avap-vsix-'));
    for (const file of ['package.json', '.vscodeignore', 'README.md', 'LICENSE', 'language-configuration.json'])
      cpSync(path.join(root, file), path.join(dir, file));
    const touch = (file: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), '// placeholder\n');
    };
    for (const bundle of bundles) {
      touch(bundle);
      touch(`${bundle}.map`);
    }
    for (const file of [
      'dist/proto/avap_parser.proto',
      'media/chat.js',
      'media/walkthrough/about.md',
      'examples/hash-password.avap',
      'examples/hash-password.avap.request.json',
      'examples/hash-password.avap.test.json',
      'dist/pglite/pglite.wasm',
      'dist/pglite/initdb.wasm',
      'dist/pglite/pglite.data',
      'schemas/avap-test.schema.json',
      'syntaxes/avap.tmLanguage.json',
      'knowledge/docs/x.md',
      'src/extension.ts',
      'test/unit/x.test.ts',
      'test/e2e/webview/chatTestHooks.js',
      'docs/screenshots/chat.png',
      'bench/index.ts',
      'node_modules/x/index.js',
      'out/e2e/index.js',
      'out/e2e/index.js.map',
      'test-output/shot.png',
      '.tools/avap-assistant.vsix',
      'esbuild.config.mjs',
      'tsconfig.json',
    ])
      touch(file);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('packs every bundle and no source map, source, test or dependency', async () => {
    const files = (await listFiles({ cwd: dir, packageManager: PackageManager.None })).map((f) =>
      f.split(path.sep).join('/'),
    );
    for (const bundle of bundles) assert.ok(files.includes(bundle), `${bundle} is packed`);
    for (const asset of [
      'package.json',
      'dist/proto/avap_parser.proto',
      'media/chat.js',
      'media/walkthrough/about.md',
      'examples/hash-password.avap',
      // Running an example in the editor: its request and test files, the database's files, the files' schemas.
      'examples/hash-password.avap.request.json',
      'examples/hash-password.avap.test.json',
      'dist/pglite/pglite.wasm',
      'dist/pglite/initdb.wasm',
      'dist/pglite/pglite.data',
      'schemas/avap-test.schema.json',
      'syntaxes/avap.tmLanguage.json',
      'knowledge/docs/x.md',
    ]) {
      assert.ok(files.includes(asset), `${asset} is packed`);
    }
    assert.deepEqual(
      files.filter((f) => f.endsWith('.map')),
      [],
      'no source maps',
    );
    // The chat's test hooks are loaded only in test mode, from the repository: a user's installation has no such file.
    assert.deepEqual(
      files.filter((f) => /chatTestHooks|^docs\//.test(f)),
      [],
      'no test hooks, no screenshots',
    );
    assert.deepEqual(
      files.filter((f) => /^(src|test|bench|node_modules|out|test-output|\.tools)\//.test(f) || /\.(ts|mjs)$/.test(f)),
      [],
      'nothing but the extension',
    );
  });

  it('contributes the Get Started walkthrough: its steps exist, are packed, and link to contributed commands', async () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: {
        commands: { command: string }[];
        walkthroughs?: {
          id: string;
          steps: { id: string; description: string; media: { markdown?: string }; completionEvents?: string[] }[];
        }[];
      };
    };
    const walkthrough = pkg.contributes.walkthroughs?.find((w) => w.id === 'avap.welcome');
    assert.ok(walkthrough, 'contributes.walkthroughs has avap.welcome');
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      [
        'avap.welcome.about',
        'avap.welcome.checkOllama',
        'avap.welcome.openExample',
        'avap.welcome.run',
        'avap.welcome.generate',
      ],
    );
    const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
    // Generate at Cursor is contributed by its own work (src/editor/generate/); the walkthrough names it by id.
    const elsewhere = new Set(['avap.generateAtCursor']);
    const linked = walkthrough.steps.flatMap((s) =>
      [...s.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1] ?? ''),
    );
    assert.deepEqual(linked, [
      'avap.ask',
      'avap.checkOllama',
      'avap.openExample',
      'avap.runFile',
      'avap.generateAtCursor',
    ]);
    for (const id of linked) assert.ok(contributed.has(id) || elsewhere.has(id), `${id} is a contributed command`);
    const packed = new Set(
      (await listFiles({ cwd: root, packageManager: PackageManager.None })).map((f) => f.split(path.sep).join('/')),
    );
    for (const step of walkthrough.steps) {
      const media = step.media.markdown;
      assert.ok(media && packed.has(media), `${step.id}: ${media} exists and is packed`);
    }
  });

  it('packaging builds the production bundles first (vscode:prepublish)', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.match(scripts['vscode:prepublish'] ?? '', /esbuild\.config\.mjs --production\b/);
  });
});

/** Width and height from a PNG's IHDR chunk (undefined when the bytes are not a PNG). */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

interface Manifest {
  license?: string;
  icon?: string;
  repository?: string | { type?: string; url?: string };
  homepage?: string;
  bugs?: string | { url?: string };
  scripts: Record<string, string>;
}

describe('the Marketplace manifest and `vsce package` without extra flags', function () {
  this.timeout(120_000);
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

  it('names a repository, a homepage and where to report bugs, a licence with its file, and a PNG icon of at least 128×128 that is packed', async () => {
    const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
    assert.match(repository ?? '', /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+?(\.git)?$/);
    assert.match(manifest.homepage ?? '', /^https:\/\//);
    assert.match((typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url) ?? '', /^https:\/\//);
    assert.equal(manifest.license, 'MIT');
    assert.match(readFileSync(path.join(root, 'LICENSE'), 'utf8'), /MIT License/);
    const icon = manifest.icon ?? '';
    assert.ok(icon.endsWith('.png'), `icon is a PNG (the Marketplace refuses SVG): ${icon}`);
    const size = pngSize(readFileSync(path.join(root, icon)));
    assert.ok(size, `${icon} is a PNG file`);
    assert.ok(size.width >= 128 && size.height >= 128, `${icon} is ${size.width}×${size.height}`);
    const packed = (await listFiles({ cwd: root, packageManager: PackageManager.None })).map((f) =>
      f.split(path.sep).join('/'),
    );
    assert.ok(packed.includes(icon), `${icon} is packed`);
  });

  it('`npm run package` is `vsce package` without flags that excuse a missing repository or unpackageable README images', () => {
    const script = manifest.scripts.package ?? '';
    assert.match(script, /^vsce package\b/);
    assert.doesNotMatch(script, /--allow-missing-repository|--no-rewrite-relative-links|--base(Images|Content)Url/);
    // npm start packages the extension it runs the same way.
    assert.match(readFileSync(path.join(root, 'scripts', 'start.mjs'), 'utf8'), /'run', 'package'/);
  });

  it('vsce packages the manifest, README and icon as they are (its own checks: repository, README images, icon)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'avap-vsix-pack-'));
    try {
      // The repository's files vsce reads, and placeholders for the bundles: the production build itself is the
      // e2e's part (npm start and the first-minute test run `npm run package`), so this copy's manifest has no
      // vscode:prepublish — everything else is as committed.
      for (const file of ['.vscodeignore', 'README.md', 'LICENSE', 'language-configuration.json'])
        cpSync(path.join(root, file), path.join(dir, file));
      cpSync(path.join(root, 'media'), path.join(dir, 'media'), { recursive: true });
      const copy = { ...manifest, scripts: { ...manifest.scripts } };
      delete copy.scripts['vscode:prepublish'];
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify(copy, null, 2));
      mkdirSync(path.join(dir, 'dist'));
      writeFileSync(path.join(dir, 'dist', 'extension.js'), '// placeholder\n');
      const packagePath = path.join(dir, 'out.vsix');
      // vsce prints the file tree (console.log) and its warnings (console.warn): kept quiet, the warnings kept.
      const warnings: string[] = [];
      const { log, warn } = console;
      console.log = () => undefined;
      console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
      try {
        await createVSIX({ cwd: dir, packagePath, dependencies: false });
      } finally {
        console.log = log;
        console.warn = warn;
      }
      assert.deepEqual(warnings, [], 'vsce warns about nothing');
      // vsce's own reader of a .vsix (a zip); the module has no type declarations.
      const zip = (await import(pathToFileURL(require.resolve('@vscode/vsce/out/zip.js')).href)) as {
        readZip: (file: string, filter: (name: string) => boolean) => Promise<Map<string, Buffer>>;
      };
      const entries = await zip.readZip(packagePath, () => true);
      const icon = entries.get(`extension/${manifest.icon}`);
      assert.ok(icon && pngSize(icon), 'the icon is in the .vsix');
      const xml = entries.get('extension.vsixmanifest')?.toString('utf8') ?? '';
      assert.match(xml, new RegExp(`Path="extension/${manifest.icon}"`), 'the .vsix manifest names the icon');
      const readme = [...entries].find(([name]) => name.toLowerCase() === 'extension/readme.md')?.[1].toString('utf8');
      assert.ok(readme, 'the README is packed');
      const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => m[1] ?? '');
      assert.ok(images.length > 0, 'the README has images');
      for (const image of images) {
        assert.match(image, /^https:\/\//, `README image ${image} is an https URL in the package`);
        assert.doesNotMatch(image, /\.svg$/i, `README image ${image} is not an SVG`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
