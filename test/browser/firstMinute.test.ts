/**
 * The first minute of a new user, in the real VS Code (code-server 4.100.3) driven through headless
 * Chromium as a person drives it: the packaged extension (`npm run package`) installed into a FRESH profile —
 * a new user-data directory, no AVAP settings but the Ollama URL, the first-run behaviour on (the extension runs
 * in production mode, not as the extension-host suite's development extension) — a folder opened, a file with
 * two mistakes opened through Quick Open, the status bar and the language status read from the DOM, `Ctrl+I`
 * pressed, *Fix All* run from the command palette.
 *
 * The file that activated the extension keeps the active editor and the keyboard focus: a recorder loaded into
 * the page before the workbench (./workbenchProbe.js) notes every active tab, every set of tabs and every focus
 * move from the first paint on, and the test reads that record — events, not pauses. Twice, each with a fresh
 * profile: with the parser the extension starts itself (valid and invalid looks), and with the parser
 * unreachable (the unvalidated look). The model is the scripted Ollama-compatible server, over real HTTP.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { VscodeHost } from './vscodeHost';
import { chromium, type Browser, type Page } from 'playwright-core';
import { promptTask, type PromptTask } from '../../src/core';
import {
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../support/scriptedOllama';
import { unusedPort } from '../support/ports';

const root = path.resolve(__dirname, '..', '..');
const TEST_OUTPUT = path.join(root, 'test-output');

const MODELS = ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b'];
/** Two mistakes, each with a proven fix: a `;` and an invented command name. */
const TWO_MISTAKES = 'addParam(password, p);\ngetSHA256(p, h)\naddResult(h)\n';
const VALID = 'addParam(user, u)\naddResult(u)\n';
const GENERATED = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';
const FILE = 'two-mistakes.avap';
const VALID_FILE = 'valid.avap';
const STATUS_ITEM = 'avap.validationStatus';
const LANGUAGE_STATUS = 'status.languageStatus';
const FIRST_RUN = 'AVAP Assistant is on';

const task = (name: PromptTask) => (request: RecordedRequest) => promptTask(systemPrompt(request)) === name;

interface StatusItem {
  id: string;
  text: string;
  className: string;
  icons: string[];
}
interface QuickInput {
  title: string;
  rows: { text: string; focused: boolean }[];
  inputFocused: boolean;
}
interface HoverEntry {
  text: string;
  severity: string;
  severityShown: boolean;
  severityColor: string;
}
interface History {
  activeTabs: string[];
  tabSets: string[];
  focus: string[];
}

/** One new user: a fresh profile and extensions folder, code-server, a browser tab on the folder. */
class NewUser {
  page!: Page;
  private browser?: Browser;
  private readonly children: InstanceType<VscodeHost['Children']>;
  private readonly log: string[] = [];
  /** Files the user opened; the only tabs that may become active. */
  readonly opened: string[] = [];
  /** Tabs on screen when the user starts (none: VS Code's own Welcome editor has been closed). */
  startupTabs: string[] = [];
  /** Where the record stood when the user started (the entry of that moment included). */
  startedAt = { tabSets: 0 };

  constructor(
    private readonly host: VscodeHost,
    readonly name: string,
  ) {
    this.children = new host.Children();
  }

  async start(options: { vsix: string; work: string; settings: Record<string, unknown> }): Promise<void> {
    const dir = path.join(options.work, this.name);
    const userDataDir = path.join(dir, 'user-data');
    const extensionsDir = path.join(dir, 'extensions');
    const workspace = path.join(dir, 'workspace');
    for (const d of [path.join(userDataDir, 'User'), extensionsDir, workspace]) mkdirSync(d, { recursive: true });
    writeFileSync(path.join(workspace, FILE), TWO_MISTAKES);
    writeFileSync(path.join(workspace, VALID_FILE), VALID);
    // A new user's settings: nothing of VS Code's own first run switched off (the Welcome page shows), only what
    // keeps the machine quiet, and the one AVAP setting the test needs (where the scripted model listens).
    writeFileSync(
      path.join(userDataDir, 'User', 'settings.json'),
      JSON.stringify(
        {
          'telemetry.telemetryLevel': 'off',
          'update.mode': 'none',
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          ...options.settings,
        },
        null,
        2,
      ),
    );
    await this.host.installVsix(options.vsix, extensionsDir, userDataDir);
    const port = await this.host.freePort();
    await this.host.startCodeServer(this.children, {
      port,
      userDataDir,
      extensionsDir,
      workspace,
      onLog: (t) => this.log.push(t),
    });
    this.browser = await chromium.launch({
      executablePath: this.host.CHROMIUM_BIN,
      headless: true,
      args: this.host.CHROMIUM_ARGS,
    });
    this.page = await this.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await this.page.addInitScript({ path: path.join(__dirname, 'workbenchProbe.js') });
    await this.page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { timeout: 180_000 });
    await this.page.waitForSelector('.monaco-workbench', { timeout: 180_000 });
    await this.page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 120_000 });
    // VS Code's own first run: its Welcome editor comes up, and once the workbench has registered the
    // walkthroughs (some seconds later) it shows its "Setup" walkthrough and takes the focus — before any AVAP
    // file is open, so before the extension activates. While it renders it takes the focus more than once (on a
    // loaded machine, seconds apart), which would race Quick Open; a person who came to work on a file closes it.
    // From then on every tab and focus change in the record is the user's or the extension's.
    await this.until(
      "VS Code's own first-run walkthrough",
      `/^Walkthrough: (?!AVAP)/.test(probe.activeTab()) && probe.focus() === 'editor-group:' + probe.activeTab()`,
      120_000,
    );
    await this.page.locator('.tabs-container .tab.active .tab-actions .codicon-close').click();
    await this.until("VS Code's Welcome editor closed", 'probe.tabs().length === 0');
    this.startupTabs = await this.probe<string[]>('probe.tabs()');
    const history = await this.history();
    this.startedAt = { tabSets: history.tabSets.length - 1 };
  }

  /** Evaluates an expression over the page's probe (`probe.…`). */
  probe<T>(expression: string): Promise<T> {
    return this.page.evaluate<T>(`(() => { const probe = window.avapProbe; return (${expression}); })()`);
  }

  /** Waits until the expression over the probe is truthy (checked at every frame); fails with what was on screen. */
  async until<T = unknown>(what: string, expression: string, timeout = 60_000): Promise<T> {
    try {
      const handle = await this.page.waitForFunction(
        `(() => { const probe = window.avapProbe; return probe && (${expression}); })()`,
        undefined,
        { timeout },
      );
      return (await handle.jsonValue()) as T;
    } catch (err) {
      const facts = await this.probe<unknown>(
        '({ activeTab: probe.activeTab(), focus: probe.focus(), tabs: probe.tabs(), status: probe.statusItems().map((i) => i.text), notifications: probe.notifications(), quickInput: probe.quickInput(), codeLenses: probe.codeLenses() })',
      ).catch(() => 'no page');
      await this.screenshot(`failure-${what.replace(/\W+/g, '-').slice(0, 60)}`);
      throw new Error(
        `${this.name}: ${what}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\non screen: ${JSON.stringify(facts)}`,
        { cause: err },
      );
    }
  }

  async screenshot(name: string): Promise<void> {
    mkdirSync(TEST_OUTPUT, { recursive: true });
    await this.page
      .screenshot({ path: path.join(TEST_OUTPUT, `first-minute-${this.name}-${name}.png`) })
      .catch(() => undefined);
  }

  statusItem(part: string): Promise<StatusItem | undefined> {
    return this.probe<StatusItem | undefined>(`probe.statusItem(${JSON.stringify(part)})`);
  }

  /** Quick Open (Ctrl+P), the file's name, Enter — once its row is the one selected. */
  async quickOpen(name: string): Promise<void> {
    await this.page.keyboard.press('Control+KeyP');
    await this.until('Quick Open is up', 'probe.quickInput()?.inputFocused');
    await this.page.keyboard.type(name);
    await this.until(
      `Quick Open selects ${name}`,
      `probe.quickInput()?.rows.some((r) => r.focused && r.text.includes(${JSON.stringify(name)}))`,
    );
    await this.page.keyboard.press('Enter');
    this.opened.push(name);
    await this.until(
      `${name} is the active editor, with the focus`,
      `probe.activeTab() === ${JSON.stringify(name)} && probe.focus() === ${JSON.stringify(`editor:${name}`)}`,
    );
  }

  /** The command palette (F1), the command's title, Enter — once its row is the one selected. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.until('the command palette is up', 'probe.quickInput()?.inputFocused');
    await this.page.keyboard.type(title);
    await this.until(
      `the command palette offers "${title}"`,
      `probe.quickInput()?.rows.some((r) => r.focused && r.text.includes(${JSON.stringify(title)}))`,
    );
    await this.page.keyboard.press('Enter');
  }

  /** The language status (`{}` beside the language mode): its icon, and its hover's entries. */
  async languageStatus(): Promise<{
    icons: string[];
    hover: HoverEntry[];
  }> {
    const item = await this.statusItem(LANGUAGE_STATUS);
    assert.ok(item, `${this.name}: the language status item is in the status bar`);
    await this.page.hover(`[id="${LANGUAGE_STATUS}"]`);
    const hover = await this.until<HoverEntry[]>(
      'the language status hover',
      `probe.languageHover().some((h) => h.text.includes('Circuit')) && probe.languageHover()`,
    );
    await this.page.mouse.move(700, 3);
    await this.until('the language status hover is gone', 'probe.languageHover().length === 0', 20_000);
    return { icons: item.icons, hover };
  }

  history(): Promise<History> {
    return this.probe<History>('probe.history');
  }

  async close(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    await this.children.killAll();
  }
}

/**
 * The record of the whole session: from the moment the user's first file was active, only files the user opened
 * were ever the active tab; from the moment the user started, no editor opened that the user did not open, and
 * our walkthrough never showed.
 */
async function assertNothingTookTheEditor(user: NewUser): Promise<void> {
  const history = await user.history();
  const record = JSON.stringify(history);
  const first = history.activeTabs.indexOf(user.opened[0] ?? '');
  assert.ok(first >= 0, `${user.name}: the first file was active at some point: ${record}`);
  const foreign = history.activeTabs.slice(first).filter((t) => !user.opened.includes(t));
  assert.deepEqual(foreign, [], `${user.name}: active tabs the user did not open, since the first file: ${record}`);
  const others = history.tabSets
    .slice(user.startedAt.tabSets)
    .map((set) => (JSON.parse(set) as string[]).filter((t) => !user.opened.includes(t)));
  const most = Math.max(...others.map((tabs) => tabs.length));
  assert.ok(most <= user.startupTabs.length, `${user.name}: an editor opened that nobody asked for: ${record}`);
  assert.ok(!others.flat().some((t) => /Walkthrough: AVAP/.test(t)), `${user.name}: our walkthrough showed: ${record}`);
}

/** Between two points of the focus record, the keyboard focus never left the editor of `file`. */
function assertFocusStayed(user: NewUser, focus: string[], from: number, file: string): void {
  const moves = focus.slice(from);
  assert.ok(moves.length > 0, `${user.name}: the focus record has the editor`);
  assert.deepEqual(
    moves.filter((f) => f !== `editor:${file}`),
    [],
    `${user.name}: the focus left ${file}'s editor without the user: ${JSON.stringify(moves)}`,
  );
}

describe('the first minute of a new user: the packaged extension, a fresh profile, the real VS Code', function () {
  this.timeout(600_000);
  let host: VscodeHost;
  let work: string;
  let vsix: string;
  let ollama: ScriptedOllama;
  /** The colour of the invalid verdict's mark in the language status hover, to compare with the unvalidated one. */
  let invalidColor = '';

  before(async () => {
    host = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'vscodeHost.mjs')).href)) as VscodeHost;
    host.requireChromium();
    host.requireFile(host.CODE_SERVER_BIN, 'run `bash scripts/install-vscode-host.sh` first');
    work = mkdtempSync(path.join(os.tmpdir(), 'avap-first-minute-'));
    vsix = path.join(work, 'avap-assistant.vsix');
    // Packaged as a user gets it: `npm run package` (the production build, then vsce without extra flags).
    const packaged = spawnSync('npm', ['run', 'package', '--', '--out', vsix], { cwd: root, encoding: 'utf8' });
    assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.stdout}\n${packaged.stderr}`);
    ollama = await startScriptedOllama({ models: MODELS });
  });

  after(async () => {
    await ollama?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** The model's side of Generate at Cursor: a search query, then the code. */
  function scriptModel(): void {
    ollama.reset();
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 addParam password' });
    ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: `\`\`\`avap\n${GENERATED}\n\`\`\`` });
  }

  describe('with the parser the extension starts itself (no AVAP settings): invalid, then valid', () => {
    let user: NewUser;
    let focusFrom = 0;

    before(async () => {
      user = new NewUser(host, 'parser-up');
      await user.start({ vsix, work, settings: { 'avap.ollama.url': ollama.url } });
    });

    after(async () => {
      await user?.close();
    });

    it('opening a file with two mistakes: "AVAP: invalid (2 errors)" in red, squiggles, the first-run notification — and the file keeps the active editor and the focus', async () => {
      await user.quickOpen(FILE);
      focusFrom = (await user.history()).focus.lastIndexOf(`editor:${FILE}`);
      const status = await user.until<StatusItem>(
        'the invalid status item',
        `probe.statusItem('${STATUS_ITEM}')?.text.includes('AVAP: invalid (2 errors)') && probe.statusItem('${STATUS_ITEM}')`,
      );
      assert.match(status.className, /error-kind/);
      assert.ok(status.icons.includes('codicon-error'), status.icons.join(','));
      await user.until('two error squiggles', 'probe.squiggles() >= 2');
      // The first run's one action: a notification with a way to the walkthrough — no editor opened.
      const toast = await user.until<string>(
        'the first-run notification',
        `probe.notifications().find((n) => n.includes('${FIRST_RUN}'))`,
      );
      assert.match(toast, /Get Started/);
      await user.screenshot('invalid');
      assert.equal(await user.probe('probe.activeTab()'), FILE);
      assert.equal(await user.probe('probe.focus()'), `editor:${FILE}`);
      assert.ok(!(await user.probe<string[]>('probe.tabs()')).some((t) => /Walkthrough: AVAP/.test(t)));
    });

    it('the language status beside the language mode says invalid, in the error severity', async () => {
      const language = await user.languageStatus();
      assert.ok(language.icons.includes('codicon-bracket-error'), language.icons.join(','));
      const [entry] = language.hover;
      assert.ok(entry, JSON.stringify(language.hover));
      assert.match(entry.text, /invalid \(2 errors\)/);
      assert.match(entry.text, /Circuit: CLOSED/);
      assert.deepEqual([entry.severity, entry.severityShown], ['sev3', true]);
      invalidColor = entry.severityColor;
    });

    it('Ctrl+I, pressed in the file without clicking anything first, opens the Generate at Cursor prompt and the answer goes into the file', async () => {
      scriptModel();
      await user.page.keyboard.press('Control+End');
      const before = (await user.history()).focus;
      assertFocusStayed(user, before, focusFrom, FILE);
      await user.page.keyboard.press('Control+KeyI');
      const prompt = await user.until<QuickInput>(
        'the Generate at Cursor prompt',
        'probe.quickInput()?.inputFocused && probe.quickInput()',
      );
      assert.equal(prompt.title, 'AVAP: Generate at Cursor', 'not the plain Generate Code prompt');
      await user.page.keyboard.type('hash the password parameter');
      await user.page.keyboard.press('Enter');
      await user.until(
        'the pending change with its verdict, Accept and Reject',
        `probe.codeLenses().some((l) => l.includes('AVAP: valid')) && probe.codeLenses().some((l) => l.includes('Accept'))`,
      );
      assert.match(await user.probe<string>('probe.editorText()'), /encodeSHA256\(p, h\)/);
      await user.screenshot('generated');
      await user.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'Accept' }).click();
      await user.until('the change accepted', `!probe.codeLenses().some((l) => l.includes('Accept'))`);
    });

    it('Fix All from the command palette fixes both mistakes: "AVAP: valid", no squiggles, the language status too', async () => {
      await user.runCommand('AVAP: Fix All Auto-fixable Problems');
      const status = await user.until<StatusItem>(
        'the valid status item',
        `probe.squiggles() === 0 && /AVAP: valid(?!ating)/.test(probe.statusItem('${STATUS_ITEM}')?.text ?? '') && probe.statusItem('${STATUS_ITEM}')`,
      );
      assert.ok(status.icons.includes('codicon-check'), status.icons.join(','));
      assert.doesNotMatch(status.className, /error-kind|warning-kind/);
      const text = await user.probe<string>('probe.editorText()');
      assert.doesNotMatch(text, /getSHA256|;/);
      const language = await user.languageStatus();
      assert.ok(language.icons.includes('codicon-bracket'), language.icons.join(','));
      assert.match(language.hover[0]?.text ?? '', /valid/);
      assert.equal(language.hover[0]?.severityShown, false);
      await user.screenshot('fixed');
    });

    it('a valid file opened next: "AVAP: valid"', async () => {
      await user.quickOpen(VALID_FILE);
      await user.until(
        'the valid status item for the valid file',
        `/AVAP: valid(?!ating)/.test(probe.statusItem('${STATUS_ITEM}')?.text ?? '') && probe.squiggles() === 0`,
      );
    });

    it('the whole session long, only the user changed the active editor, and no editor opened on its own', async () => {
      await assertNothingTookTheEditor(user);
    });
  });

  describe('with the parser unreachable: unvalidated', () => {
    let user: NewUser;
    let focusFrom = 0;

    before(async () => {
      user = new NewUser(host, 'parser-down');
      await user.start({
        vsix,
        work,
        settings: { 'avap.ollama.url': ollama.url, 'avap.parser.url': `127.0.0.1:${await unusedPort()}` },
      });
    });

    after(async () => {
      await user?.close();
    });

    it('opening the file: "AVAP: unvalidated — parser unavailable" in amber, no squiggles, the first-run notification — and the file keeps the active editor and the focus', async () => {
      await user.quickOpen(FILE);
      focusFrom = (await user.history()).focus.lastIndexOf(`editor:${FILE}`);
      const status = await user.until<StatusItem>(
        'the unvalidated status item',
        `probe.statusItem('${STATUS_ITEM}')?.text.includes('AVAP: unvalidated — parser unavailable') && probe.statusItem('${STATUS_ITEM}')`,
      );
      assert.match(status.className, /warning-kind/);
      assert.doesNotMatch(status.className, /error-kind/);
      assert.ok(status.icons.includes('codicon-debug-disconnect'), status.icons.join(','));
      await user.until('the first-run notification', `probe.notifications().some((n) => n.includes('${FIRST_RUN}'))`);
      assert.equal(await user.probe('probe.squiggles()'), 0, 'nothing was proven wrong: no squiggles');
      await user.screenshot('unvalidated');
      assert.equal(await user.probe('probe.activeTab()'), FILE);
      assert.equal(await user.probe('probe.focus()'), `editor:${FILE}`);
    });

    it('the language status says unvalidated, in the warning severity — not the error one', async () => {
      const language = await user.languageStatus();
      assert.ok(language.icons.includes('codicon-bracket-dot'), language.icons.join(','));
      const [entry] = language.hover;
      assert.match(entry?.text ?? '', /unvalidated — parser unavailable/);
      assert.deepEqual([entry?.severity, entry?.severityShown], ['sev2', true]);
      assert.ok(invalidColor && entry?.severityColor, 'both marks have a colour');
      assert.notEqual(entry?.severityColor, invalidColor, 'unvalidated is not marked in the colour of invalid');
    });

    it('Ctrl+I opens the Generate at Cursor prompt and the answer goes into the file, labelled unvalidated', async () => {
      scriptModel();
      await user.page.keyboard.press('Control+End');
      assertFocusStayed(user, (await user.history()).focus, focusFrom, FILE);
      await user.page.keyboard.press('Control+KeyI');
      const prompt = await user.until<QuickInput>(
        'the Generate at Cursor prompt',
        'probe.quickInput()?.inputFocused && probe.quickInput()',
      );
      assert.equal(prompt.title, 'AVAP: Generate at Cursor');
      await user.page.keyboard.type('hash the password parameter');
      await user.page.keyboard.press('Enter');
      await user.until(
        'the pending change labelled unvalidated',
        `probe.codeLenses().some((l) => l.includes('unvalidated')) && probe.codeLenses().some((l) => l.includes('Accept'))`,
      );
      assert.ok(!(await user.probe<string[]>('probe.codeLenses()')).some((l) => /AVAP: valid(?!ating)/.test(l)));
      assert.match(await user.probe<string>('probe.editorText()'), /encodeSHA256\(p, h\)/);
      await user.screenshot('generated');
    });

    it('Fix All is offered in the command palette and says that nothing can be proven without the parser', async () => {
      await user.runCommand('AVAP: Fix All Auto-fixable Problems');
      await user.until(
        'the Fix All notification',
        `probe.notifications().some((n) => n.includes('nothing was fixed — the parser is unavailable'))`,
      );
      assert.match(await user.probe<string>('probe.editorText()'), /getSHA256/);
    });

    it('the whole session long, only the user changed the active editor, and no editor opened on its own', async () => {
      await assertNothingTookTheEditor(user);
    });
  });
});
