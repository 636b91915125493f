/**
 * Every status earned, in the real editor: a failed run makes no validity claim (no
 * preview, no "valid" label, no Accept; an error notification with what to
 * do; counted as failed in the metrics), streamed text reads *validating…*
 * until the verdict, documentation answers are validated in the chat view,
 * and an answer without documentation context says so. Real HTTP to the
 * scripted Ollama, real gRPC to the parser service, the browser's DOM.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { GenerateOutcome } from '../../src/editor';
import { parseSignals } from '../../src/signals';
import { unusedPort } from '../support/ports';
import { captureUntil, captureWorkbench } from './support/workbench';
import {
  avapApi,
  chatHooks,
  closeAllEditors,
  extensionFile,
  loadAssistant,
  setSetting,
  waitFor,
} from './support/vscodeHelpers';
import { fenced, INVALID_CODE, scriptedOllama, scriptReformulate, task, VALID_CODE } from './support/world';

/** A label that reads as valid ("AVAP: valid", not "AVAP: validating…"), or an Accept action. */
const VALID_OR_ACCEPT = /AVAP: valid(?!ating)|Accept/;
const VALID_LOOK = /AVAP: valid(?!ating)/;

const generatedTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'avap-generated');
const lensTitles = async (uri: vscode.Uri) =>
  (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)).map(
    (l) => l.command?.title ?? '',
  );

function lastTelemetryEvent(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  return lines.length ? (JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>) : undefined;
}

describe('every status is earned, in the editor', () => {
  afterEach(closeAllEditors);

  it('Ollama unreachable: Generate Code opens no preview and no "valid" label, says what to do, and the metrics count a failed run', async () => {
    const api = await avapApi();
    // The assistant loads on first use: load it so its log shows the URL it uses.
    await loadAssistant();
    const ollama = await scriptedOllama();
    const dead = `http://127.0.0.1:${await unusedPort()}`;
    await setSetting('ollama.url', dead);
    try {
      await api.ready();
      await waitFor('the dead Ollama URL in use', () =>
        api.outputLines().some((l) => l.includes(`at ${dead}`)) ? true : undefined,
      );
      const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
        request: 'hash the password',
        accept: 'none',
      });
      assert.equal(outcome.status, 'error');
      assert.equal(outcome.previewUri, undefined, 'no preview for a run without an answer');
      assert.match(outcome.error ?? '', /Ollama is not running at .*ollama serve/);
      assert.equal(generatedTabs().length, 0);

      const facts = await captureUntil(
        (f) => f.notifications.some((n) => /code generation failed — Ollama is not running/.test(n)),
        { screenshot: 'failure-ollama-unreachable', notificationCentre: true },
      );
      await vscode.commands.executeCommand('notifications.hideList');
      assert.ok(
        facts.notifications.some((n) => /code generation failed — Ollama is not running at .*ollama serve/.test(n)),
        JSON.stringify(facts.notifications),
      );
      assert.ok(
        facts.notifications.some((n) => /Retry/.test(n) && /Show Output/.test(n)),
        'the notification offers what to do',
      );
      assert.ok(!facts.codeLenses.some((t) => VALID_OR_ACCEPT.test(t)), JSON.stringify(facts.codeLenses));

      const event = await waitFor('the failed run in the telemetry', () => {
        const last = lastTelemetryEvent(extensionFile(api, 'telemetry'));
        return last?.error_code === 'llm-unreachable' ? last : undefined;
      });
      assert.equal(event.final, true);
      assert.equal('validation_status' in event, false, 'the failed run claims no status');
      const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>('avap.showValidationMetrics');
      assert.match(panel.webview.html, /failed \/ cancelled/);
      assert.match(panel.webview.html, />[1-9]\d* \(no answer\)</, 'counted as failed, never as valid');
      panel.dispose();
    } finally {
      await setSetting('ollama.url', ollama.url);
      await api.ready();
    }
  });

  it('streamed text is a draft: "validating…", no Accept, no valid look; cancelled, the preview is withdrawn and nothing can be accepted', async () => {
    const api = await avapApi();
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    // Three pieces, then silence until the user cancels.
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE), stallAfterChunks: 3 });
    const running = vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
      request: 'hash the password',
      accept: 'none',
    });
    const previewUri = await waitFor('the draft preview', () => {
      const tab = generatedTabs()[0];
      return tab?.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
    });
    const draftLenses = await waitFor("the draft's label", async () => {
      const titles = await lensTitles(previewUri);
      return titles.some((t) => t.includes('validating… (draft)')) ? titles : undefined;
    });
    assert.ok(!draftLenses.some((t) => VALID_OR_ACCEPT.test(t)), draftLenses.join(' | '));
    assert.equal(
      await vscode.commands.executeCommand('avap.acceptGenerated', previewUri),
      undefined,
      'a draft cannot be accepted',
    );
    // Focused, the draft's status bar item reads "validating…" too, whatever its partial text parses as.
    await vscode.window.showTextDocument(previewUri, { preview: true, preserveFocus: false });
    const look = await waitFor('the draft look', () =>
      api.statusLook()?.label.includes('validating… (draft)') ? api.statusLook() : undefined,
    );
    assert.equal(look.kind, 'pending');
    const facts = await captureWorkbench({ screenshot: 'draft-validating' });
    assert.ok(!facts.codeLenses.some((t) => VALID_OR_ACCEPT.test(t)), JSON.stringify(facts.codeLenses));

    assert.equal(await vscode.commands.executeCommand<number>('avap.cancelGeneration'), 1);
    const outcome = await running;
    assert.equal(outcome.status, 'cancelled');
    await waitFor('the preview withdrawn', () => (generatedTabs().length === 0 ? true : undefined));
    const after = await lensTitles(previewUri);
    assert.ok(
      after.some((t) => t.includes('generation failed — nothing was validated')),
      after.join(' | '),
    );
    assert.ok(!after.some((t) => VALID_OR_ACCEPT.test(t)), after.join(' | '));
    assert.equal(
      await vscode.commands.executeCommand('avap.acceptGenerated', previewUri),
      undefined,
      'a cancelled run cannot be accepted',
    );
  });

  it('a model that stalls mid-answer is stopped at avap.ollama.idleTimeout with an error that says what to do', async () => {
    const api = await avapApi();
    const ollama = await scriptedOllama();
    await setSetting('ollama.idleTimeout', 1);
    try {
      await api.ready();
      scriptReformulate(ollama);
      ollama.on(
        { endpoint: 'chat', when: task('generate_code') },
        { content: fenced(VALID_CODE), stallAfterChunks: 2 },
      );
      const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
        request: 'hash the password',
        accept: 'none',
      });
      assert.equal(outcome.status, 'error');
      assert.equal(outcome.previewUri, undefined);
      assert.match(
        outcome.error ?? '',
        /stopped sending mid-answer: nothing for 1 s .*raise AVAP_LLM_IDLE_TIMEOUT \(avap\.ollama\.idleTimeout\)/,
      );
      await waitFor('the preview withdrawn', () => (generatedTabs().length === 0 ? true : undefined));
    } finally {
      await setSetting('ollama.idleTimeout', undefined);
      await api.ready();
    }
  });

  it('chat: a documentation answer\'s code is validated — drafts read "validating…", the verdict is invalid, and its signal says so', async () => {
    const api = await avapApi();
    const ollama = await scriptedOllama();
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 password' });
    ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    ollama.on({ endpoint: 'chat', when: task('generate') }, { content: fenced(INVALID_CODE), chunkDelayMs: 300 });
    const asking = api.chat.ask('How do I hash the password parameter?');
    // By the time the answer is being generated, the view is shown and the question posted.
    await ollama.waitFor(task('generate'));
    const draft = await waitFor('a draft in the chat view', async () => {
      const probe = await (await chatHooks()).probe();
      return probe.lastAnswerDraft && probe.lastAnswerText.length > 0 ? probe : undefined;
    });
    assert.match(draft.lastAnswerMeta, /validating… \(draft\)/);
    assert.doesNotMatch(draft.lastAnswerMeta, VALID_LOOK);
    const result = await asking;
    assert.equal(result.queryType, 'RETRIEVAL');
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    const final = await waitFor('the final answer', async () => {
      const probe = await (await chatHooks()).probe();
      return probe.lastAnswerDraft ? undefined : probe;
    });
    assert.match(final.lastAnswerMeta, /AVAP: invalid/);
    assert.doesNotMatch(final.lastAnswerMeta, /AVAP: valid/);
    const signal = await waitFor('the signal', () => {
      const file = extensionFile(api, 'signals');
      return parseSignals(existsSync(file) ? readFileSync(file, 'utf8') : '').signals.find(
        (s) => s.id === result.generationId,
      );
    });
    assert.equal(signal.output.validation_status, 'INVALID_UNRESOLVED');
  });

  it('with Elasticsearch down, the chat answer and Generate Code say "answered without documentation context"', async function () {
    this.timeout(90_000);
    const api = await avapApi();
    const ollama = await scriptedOllama();
    await setSetting('elasticsearch.url', `http://127.0.0.1:${await unusedPort()}`);
    try {
      await api.ready();
      ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
      ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'addParam' });
      ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
      ollama.on(
        { endpoint: 'chat', when: task('generate') },
        { content: 'The documentation is not available right now.' },
      );
      const result = await api.chat.ask('What does addParam do?');
      assert.equal(result.retrieval?.status, 'degraded');
      const probe = await waitFor('the final answer', async () => {
        const p = await (await chatHooks()).probe();
        return p.lastAnswerDraft ? undefined : p;
      });
      assert.match(probe.lastAnswerMeta, /answered without documentation context/);

      scriptReformulate(ollama);
      ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
      const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
        request: 'hash the password',
        accept: 'none',
      });
      assert.equal(outcome.status, '');
      assert.ok(
        api
          .outputLines()
          .some((l) => /generate: 1 attempt\(s\), AVAP: valid — answered without documentation context/.test(l)),
        api.outputLines().slice(-5).join('\n'),
      );
    } finally {
      await setSetting('elasticsearch.url', undefined);
      await api.ready();
    }
  });
});
