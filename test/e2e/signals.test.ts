/**
 * Training signals and the quality judge in the real editor: every answer is
 * recorded as a signal; thumbs on a generated preview, accepting it and
 * editing it before saving land on that signal; with avap.quality.judge on, a
 * documentation answer is scored by the (scripted) judge and its scores are
 * on its signal.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GenerateOutcome } from '../../src/editor';
import { JUDGE_SYSTEM_HEADER } from '../../src/quality';
import { parseSignals } from '../../src/signals';
import { systemPrompt } from '../support/scriptedOllama';
import { e2eConfig } from './support/config';
import { avapApi, closeAllEditors, extensionFile, setSetting, waitFor } from './support/vscodeHelpers';
import { fenced, scriptedOllama, scriptReformulate, task, VALID_CODE } from './support/world';

async function signalOf(id: string) {
  const file = extensionFile(await avapApi(), 'signals');
  return parseSignals(existsSync(file) ? readFileSync(file, 'utf8') : '').signals.find((s) => s.id === id);
}

describe('training signals and the judge in the editor', () => {
  afterEach(closeAllEditors);

  it("a generated preview: thumbs, accepted, then edited before saving — all on the generation's signal", async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    await avapApi();
    const file = path.join(e2eConfig().workspace, `signals-${process.pid}-${Date.now()}.avap`);
    writeFileSync(file, '');
    try {
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), {
        preview: false,
      });
      const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
        request: 'hash the password parameter',
        accept: 'editor',
      });
      assert.equal(outcome.status, '');
      assert.equal(outcome.acceptedUri, editor.document.uri.toString());
      const previewUri = vscode.Uri.parse(outcome.previewUri ?? '');
      const generationId = (
        await waitFor('the signal', async () => {
          const all = parseSignals(readFileSync(extensionFile(await avapApi(), 'signals'), 'utf8')).signals;
          return all.find(
            (s) =>
              s.output.code === VALID_CODE &&
              s.outcome?.outcome === 'accepted' &&
              s.input.query === 'hash the password parameter',
          );
        })
      ).id;

      const lensesBefore = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        previewUri,
      );
      const thumbsDown = lensesBefore.find(
        (l) => l.command?.command === 'avap.rateGenerated' && l.command.arguments?.[1] === 'down',
      );
      assert.ok(thumbsDown, lensesBefore.map((l) => l.command?.title).join(' | '));
      assert.equal(
        await vscode.commands.executeCommand<boolean>(
          thumbsDown.command!.command,
          ...((thumbsDown.command!.arguments as unknown[] | undefined) ?? []),
        ),
        true,
      );
      const rated = await waitFor('the thumbs', async () =>
        (await signalOf(generationId))?.feedback ? signalOf(generationId) : undefined,
      );
      assert.equal(rated?.feedback?.thumbs, 'down');
      assert.equal(rated?.feedback?.source, 'editor');
      const lensesAfter = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        previewUri,
      );
      assert.ok(
        lensesAfter.some((l) => l.command?.title.includes('rated')),
        lensesAfter.map((l) => l.command?.title).join(' | '),
      );

      // Saved as accepted: still "accepted". Edited, then saved: "edited", with the saved text.
      await editor.document.save();
      const line = editor.document.lineAt(1);
      await editor.edit((b) => b.replace(line.range, 'encodeSHA256(p, digest)'));
      await editor.document.save();
      const edited = await waitFor('the edited outcome', async () => {
        const s = await signalOf(generationId);
        return s?.outcome?.outcome === 'edited' ? s : undefined;
      });
      assert.match(edited.outcome?.final_code ?? '', /encodeSHA256\(p, digest\)/);
      // The negative check — saving unchanged code must not turn "accepted" into "edited" — with the second save
      // as its barrier: outcomes are appended to the store in the order the saves happened, so once the edited
      // save's record is there, anything the first save wrote is there before it. The outcome records of this
      // generation are the acceptance and the one edited save, nothing between them.
      const outcomes = readFileSync(extensionFile(await avapApi(), 'signals'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { record: string; signal_id?: string; outcome?: string; final_code?: string })
        .filter((r) => r.record === 'outcome' && r.signal_id === generationId);
      assert.deepEqual(
        outcomes.map((r) => r.outcome),
        ['accepted', 'edited'],
        JSON.stringify(outcomes),
      );
      assert.match(outcomes[1]?.final_code ?? '', /encodeSHA256\(p, digest\)/);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('with avap.quality.judge on, a documentation answer is judged and the scores are on its signal', async () => {
    const ollama = await scriptedOllama();
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
    scriptReformulate(ollama);
    ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    ollama.on(
      { endpoint: 'chat', when: task('generate') },
      { content: 'encodeSHA256(source, target) stores the SHA-256 hex digest of source in target.' },
    );
    const judge = ollama.on(
      { endpoint: 'chat', when: (r) => systemPrompt(r).startsWith(JUDGE_SYSTEM_HEADER) },
      {
        content: JSON.stringify({
          grounding: { reason: 'stated in the reference', score: 0.9 },
          specificity: { reason: 'names the command and its arguments', score: 0.8 },
          actionability: { reason: 'no program', score: 0.7 },
        }),
      },
    );
    await setSetting('quality.judge', true);
    try {
      const api = await avapApi();
      const result = await api.chat.ask('What does encodeSHA256 do?');
      assert.equal(result.queryType, 'RETRIEVAL');
      assert.equal(judge.used, 1);
      const signal = await waitFor('the judged signal', () => signalOf(result.generationId));
      assert.equal(signal.signal_type, 'retrieval');
      assert.equal(signal.automated.score?.validator, 'llm-judge');
      assert.equal(signal.automated.score?.passed, true);
      assert.ok(
        Math.abs((signal.automated.score?.composite ?? 0) - 0.83) < 1e-9,
        String(signal.automated.score?.composite),
      );
      assert.deepEqual(signal.automated.score?.dimensions, { grounding: 0.9, specificity: 0.8, actionability: 0.7 });
      assert.ok(
        signal.input.context.length > 0 && signal.input.context.every((c) => (c.text ?? '').length > 0),
        'the judged passages are on the signal',
      );
      assert.ok(
        api.outputLines().some((l) => l.includes('[ptvl] judge: composite 0.83, passed')),
        api.outputLines().slice(-10).join('\n'),
      );
    } finally {
      await setSetting('quality.judge', undefined);
      await avapApi();
    }
  });
});
