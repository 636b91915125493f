/**
 * Editor benchmarks inside the real VS Code (run by `npm run bench` through
 * scripts/run-vscode-tests.mjs --suite bench): activation time, and the time
 * from an edit to updated diagnostics on a 1 000-line document. Records the
 * samples; bench/editor turns them into ratios. Asserts nothing about speed.
 */
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { createGrpcTransport } from '../../../src/core/parser/grpcTransport';
import type { AvapExtensionApi } from '../../../src/editor/api';
import { e2eConfig } from '../support/config';
import { EXTENSION_ID, parserDiagnostics, setSetting } from '../support/vscodeHelpers';

const LINES = 1000;
/** Edits timed, after WARMUP untimed ones (the first keystrokes warm the gRPC channel and the JIT). */
const EDITS = 60;
const WARMUP = 6;

function program(lines: number): string {
  const out: string[] = ['addParam(password, p)'];
  for (let i = 1; i < lines - 1; i++) out.push(i % 10 === 0 ? `// step ${i}` : `addVar(v${i}, ${i})`);
  out.push('addResult(p)');
  return `${out.join('\n')}\n`;
}

const now = () => performance.now();

describe('editor benchmarks', () => {
  const record: Record<string, unknown> = {};

  after(() => {
    writeFileSync(e2eConfig().benchFile, JSON.stringify(record, null, 2));
  });

  it('activation', async () => {
    const extension = vscode.extensions.getExtension<AvapExtensionApi | undefined>(EXTENSION_ID);
    if (!extension) throw new Error('extension not found');
    record.wasActive = extension.isActive;
    const epoch0 = Date.now();
    const t0 = now();
    const api = await extension.activate();
    const t1 = now();
    await api?.ready();
    const t2 = now();
    record.activateMs = t1 - t0;
    record.readyMs = t2 - t0;
    // Where the time went, from the editor's own performance marks (millisecond resolution): loading the
    // extension's code, waiting for its context (the editor's storage), and its activate() function.
    const marks = (globalThis as { MonacoPerformanceMarks?: { getMarks(): { name: string; startTime: number }[] } }).MonacoPerformanceMarks?.getMarks() ?? [];
    const mark = (what: string) => marks.find((m) => m.name === `code/extHost/${what}/${extension.id}`)?.startTime;
    const [willLoad, didLoad, willActivate, didActivate] = ['willLoadExtensionCode', 'didLoadExtensionCode', 'willActivateExtension', 'didActivateExtension'].map(mark);
    if (willLoad !== undefined && didLoad !== undefined && willActivate !== undefined && didActivate !== undefined) {
      record.activation = { start: willLoad - epoch0, codeLoading: didLoad - willLoad, contextWait: willActivate - didLoad, activateCall: didActivate - willActivate };
    }
  });

  it('edit → updated diagnostics on a 1 000-line document', async () => {
    await setSetting('validation.debounce', 0);
    const source = program(LINES);
    const doc = await vscode.workspace.openTextDocument({ language: 'avap', content: source });
    const editor = await vscode.window.showTextDocument(doc);
    const uri = doc.uri;
    const settle = (errors: number) => new Promise<void>((resolve) => {
      const check = () => parserDiagnostics(uri).length === errors;
      if (check()) {
        resolve();
        return;
      }
      const sub = vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((u) => u.toString() === uri.toString()) && check()) {
          sub.dispose();
          resolve();
        }
      });
    });
    await settle(0);
    const line = 500;
    const samples: number[] = [];
    for (let i = 0; i < WARMUP + EDITS; i++) {
      const broken = i % 2 === 0;
      const t0 = now();
      await editor.edit((edit) => edit.replace(doc.lineAt(line).range, broken ? `getSHA256(v${line}, h)` : `addVar(v${line}, ${line})`));
      await settle(broken ? 1 : 0);
      if (i >= WARMUP) samples.push(now() - t0);
    }
    record.editSamplesMs = samples;
    record.lines = doc.lineCount;

    // The same document straight over gRPC, for the share the editor adds.
    const opened = createGrpcTransport(e2eConfig().parserAddress);
    if (!opened.ok) throw new Error(opened.error.message);
    const { transport } = opened.value;
    const direct: number[] = [];
    await transport.call(doc.getText(), 'bench.avap', { timeoutMs: 5000 });
    for (let i = 0; i < EDITS; i++) {
      const t0 = now();
      await transport.call(doc.getText(), 'bench.avap', { timeoutMs: 5000 });
      direct.push(now() - t0);
    }
    transport.close();
    record.directSamplesMs = direct;
    await setSetting('validation.debounce', undefined);
  });
});
