/**
 * Generate Code… and Regenerate with Trace against the scripted Ollama server
 * (real HTTP) and the real parser service (real gRPC).
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LOG_PARSER_UNAVAILABLE } from '../../src/core/pipeline/attempt';
import { prefixed } from '../../src/core/ports';
import type { GenerateOutcome, RegenerateOutcome } from '../../src/editor/generate/generateCommands';
import { lastUser } from '../support/scriptedOllama';
import { sampleStoredReport } from '../support/sampleEvalReport';
import { e2eConfig } from './support/config';
import {
  avapApi,
  closeAllEditors,
  extensionFile,
  openUntitledAvap,
  parserDiagnostics,
  setSetting,
  waitFor,
} from './support/vscodeHelpers';
import {
  fenced,
  FIXABLE_CODE,
  FOREIGN_CODE,
  INVALID_CODE,
  scriptedOllama,
  scriptReformulate,
  startOwnParser,
  task,
  VALID_CODE,
} from './support/world';

const docFor = (uri: string | undefined) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);

describe('generate and regenerate with the scripted model', () => {
  afterEach(closeAllEditors);

  it('generate → valid: the code lands in a new .avap document without squiggles', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const gen = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const api = await avapApi();
    const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
      request: 'return the SHA-256 of the password parameter',
      accept: 'new',
    });
    assert.equal(outcome.status, '');
    assert.equal(outcome.code, VALID_CODE);
    assert.equal(gen.used, 1);
    const doc = docFor(outcome.acceptedUri);
    assert.ok(doc, 'accepted into a new document');
    assert.equal(doc.languageId, 'avap');
    assert.equal(doc.getText(), VALID_CODE);
    await waitFor('valid status', () => (api.statusLook()?.kind === 'valid' ? true : undefined));
    assert.equal(parserDiagnostics(doc.uri).length, 0);
    // The preview is labelled with the pipeline's verdict.
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      vscode.Uri.parse(outcome.previewUri ?? ''),
    );
    assert.ok(
      lenses.some((l) => l.command?.title.includes('AVAP: valid')),
      lenses.map((l) => l.command?.title).join(' | '),
    );
  });

  it('generate → invalid twice → INVALID_UNRESOLVED, labelled invalid, with squiggles', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const gen = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const api = await avapApi();
    const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
      request: 'hash the password',
      accept: 'new',
    });
    assert.equal(outcome.status, 'INVALID_UNRESOLVED');
    assert.equal(gen.used, 2, 'one generation and exactly one retry');
    const retryPrompt = lastUser(ollama.calls('chat').filter(task('generate_code'))[1] as never);
    assert.match(retryPrompt, /Line 2: unknown command 'sha256Encode'/);

    const preview = vscode.Uri.parse(outcome.previewUri ?? '');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', preview);
    assert.ok(
      lenses.some((l) => l.command?.title.includes('AVAP: invalid — INVALID_UNRESOLVED')),
      lenses.map((l) => l.command?.title).join(' | '),
    );
    await waitFor('squiggles on the preview', () => (parserDiagnostics(preview).length > 0 ? true : undefined));

    const doc = docFor(outcome.acceptedUri);
    assert.ok(doc);
    const [diagnostic] = await waitFor('squiggles on the accepted code', () => {
      const found = parserDiagnostics(doc.uri);
      return found.length > 0 ? found : undefined;
    });
    assert.equal(diagnostic?.range.start.line, 1);
    assert.equal(diagnostic?.severity, vscode.DiagnosticSeverity.Error);
    await waitFor('invalid status', () => (api.statusLook()?.kind === 'invalid' ? true : undefined));
  });

  it("generate → every error has a proven fix: repaired by the parser's fixes without a retry, and labelled so", async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const gen = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(FIXABLE_CODE) });
    const api = await avapApi();
    const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
      request: 'hash the password',
      accept: 'new',
    });
    assert.equal(outcome.status, '');
    assert.equal(outcome.repairedBy, 'parser-fixes');
    assert.equal(outcome.code, VALID_CODE);
    assert.equal(gen.used, 1, 'no LLM retry');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      vscode.Uri.parse(outcome.previewUri ?? ''),
    );
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(
      titles.some((t) => t.includes("AVAP: valid — repaired by the parser's fixes")),
      titles.join(' | '),
    );
    const doc = docFor(outcome.acceptedUri);
    assert.equal(doc?.getText(), VALID_CODE);
    await waitFor('valid status', () => (api.statusLook()?.kind === 'valid' ? true : undefined));
    assert.ok(
      api.outputLines().some((l) => l.includes("repaired by the parser's fixes")),
      'the output channel says so',
    );
  });

  it('generate with the parser down → PARSER_UNAVAILABLE: no retry, no squiggles, an "unvalidated" label', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const gen = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const dead = await startOwnParser();
    await dead.stop();
    await setSetting('parser.url', dead.address);
    const api = await avapApi();
    try {
      await waitFor('the dead parser URL in use', () => (api.parserAddress() === dead.address ? true : undefined));
      await api.ready();
      const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
        request: 'hash the password',
        accept: 'new',
      });
      assert.equal(outcome.status, 'PARSER_UNAVAILABLE');
      assert.equal(gen.used, 1, 'an unavailable parser never triggers a retry');
      assert.ok(
        api.outputLines().some((l) => l.includes(prefixed(LOG_PARSER_UNAVAILABLE))),
        api.outputLines().slice(-10).join('\n'),
      );
      const preview = vscode.Uri.parse(outcome.previewUri ?? '');
      const previewLenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        preview,
      );
      assert.ok(
        previewLenses.some((l) => l.command?.title.includes('unvalidated')),
        previewLenses.map((l) => l.command?.title).join(' | '),
      );
      const doc = docFor(outcome.acceptedUri);
      assert.ok(doc);
      await waitFor('unavailable status', () => (api.statusLook()?.kind === 'unavailable' ? true : undefined));
      assert.equal(parserDiagnostics(doc.uri).length, 0);
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      assert.ok(
        lenses.some((l) => l.command?.title.includes('unvalidated')),
        lenses.map((l) => l.command?.title).join(' | '),
      );
    } finally {
      await setSetting('parser.url', e2eConfig().parserAddress);
      await waitFor("the runner's parser again", () =>
        api.parserAddress() === e2eConfig().parserAddress ? true : undefined,
      );
      await api.ready();
    }
  });

  it('regenerate with trace replaces the code with the validated version', async () => {
    const ollama = await scriptedOllama();
    const gen = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const editor = await openUntitledAvap(`${FOREIGN_CODE}\n`);
    const api = await avapApi();
    await waitFor('squiggles', () => (parserDiagnostics(editor.document.uri).length > 0 ? true : undefined));
    // Change the document after the diagnostics: the command must use the text and trace of now.
    await editor.edit((edit) => edit.replace(new vscode.Range(1, 0, 2, 0), 'getSHA256(p, h)\n'));
    const outcome = await vscode.commands.executeCommand<RegenerateOutcome>('avap.regenerateWithTrace', {
      uri: editor.document.uri,
      accept: true,
    });
    assert.equal(outcome.status, '');
    assert.equal(outcome.applied, true);
    assert.equal(gen.used, 1);
    const prompt = lastUser(ollama.calls('chat').filter(task('generate_code'))[0] as never);
    assert.match(prompt, /Line 2: 'getSHA256' not defined/);
    assert.doesNotMatch(prompt, /range\(/, 'the stale trace of the earlier text is not used');
    assert.equal(editor.document.getText().trimEnd(), VALID_CODE);
    await waitFor('valid after regenerate', () => (api.statusLook()?.kind === 'valid' ? true : undefined));
    assert.equal(parserDiagnostics(editor.document.uri).length, 0);
  });

  it('shows validation metrics from the telemetry log the runs above wrote', async () => {
    const api = await avapApi();
    const file = extensionFile(api, 'telemetry');
    assert.ok(existsSync(file), file);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    assert.ok(lines.length >= 4, `${lines.length} events`);
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>('avap.showValidationMetrics');
    const html = panel.webview.html;
    assert.match(html, /AVAP validation metrics/);
    assert.match(html, /INVALID_UNRESOLVED/);
    assert.match(html, /sha256Encode/);
    assert.match(html, /<svg/);
    assert.match(html, /script-src 'none'/);
    assert.match(html, /href="command:avap\.openEvaluationReport"/, 'the metrics view links to the evaluation report');
    panel.dispose();
  });

  it('Open Evaluation Report shows a report.json from eval --out, and explains a file that is not one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'avap-e2e-report-'));
    const good = path.join(dir, 'report.json');
    writeFileSync(good, JSON.stringify(sampleStoredReport()));
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>(
      'avap.openEvaluationReport',
      vscode.Uri.file(good),
    );
    const html = panel.webview.html;
    assert.match(html, /AVAP evaluation — qwen3:1\.7b/);
    assert.match(html, /66\.7 % ± 4\.7/);
    assert.match(html, /Syntactic validity per run/);
    assert.match(html, /generateToken/);
    assert.match(html, /script-src 'none'/);
    panel.dispose();
    const junk = path.join(dir, 'junk.json');
    writeFileSync(junk, Buffer.from([0, 159, 146, 150, 255]));
    const bad = await vscode.commands.executeCommand<vscode.WebviewPanel>(
      'avap.openEvaluationReport',
      vscode.Uri.file(junk),
    );
    assert.match(bad.webview.html, /Cannot show .*junk\.json: not JSON/);
    bad.dispose();
  });
});

describe('generation: cancellation and the bundled parser', () => {
  afterEach(closeAllEditors);

  it("cancel reaches Ollama: the stalled request's connection is closed and the command reports cancelled", async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { stall: true });
    await avapApi();
    const running = vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
      request: 'hash the password',
      accept: 'none',
    });
    const request = await ollama.waitFor((r) => task('generate_code')(r));
    assert.equal(request.answered, false, 'the model is still "thinking"');
    const cancelled = await vscode.commands.executeCommand<number>('avap.cancelGeneration');
    assert.equal(cancelled, 1);
    const outcome = await running;
    assert.equal(outcome.status, 'cancelled');
    await waitFor('the HTTP request to be closed by the client', () => (request.answered ? true : undefined), 10_000);
  });

  it('an empty avap.parser.url starts the bundled parser service, which stops when replaced', async () => {
    const api = await avapApi();
    await setSetting('parser.url', '');
    try {
      const address = await waitFor('a bundled parser address', () => {
        const current = api.parserAddress();
        return current && current !== e2eConfig().parserAddress ? current : undefined;
      });
      await api.ready();
      const started = api.outputLines().find((l) => l.includes(`bundled parser service listening on ${address}`));
      const pid = Number(/\(pid (\d+)\)/.exec(started ?? '')?.[1]);
      assert.ok(pid > 0, api.outputLines().slice(-10).join('\n'));
      const editor = await openUntitledAvap('getSHA256(p, h)\n');
      await waitFor('diagnostics from the bundled service', () =>
        parserDiagnostics(editor.document.uri).length === 1 ? true : undefined,
      );
      await setSetting('parser.url', e2eConfig().parserAddress);
      await waitFor("the runner's parser again", () =>
        api.parserAddress() === e2eConfig().parserAddress ? true : undefined,
      );
      await api.ready();
      await waitFor(
        'the bundled service to exit',
        () => {
          try {
            process.kill(pid, 0);
            return undefined;
          } catch {
            return true;
          }
        },
        15_000,
      );
    } finally {
      await setSetting('parser.url', e2eConfig().parserAddress);
    }
  });
});
