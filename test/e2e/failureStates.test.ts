/**
 * The two failure states must look different: INVALID_UNRESOLVED (squiggles,
 * error status) versus PARSER_UNAVAILABLE (no squiggles, warning status with
 * the circuit in the tooltip). Checked through the API and in the browser's
 * DOM, with screenshots saved to test-output/.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { avapApi, closeAllEditors, openAvap, parserDiagnostics, setSetting, waitFor } from './support/vscodeHelpers';
import { avapStatusItem, captureUntil, captureWorkbench } from './support/workbench';
import { e2eConfig } from './support/config';
import { startOwnParser, type OwnParser } from './support/world';

describe('status bar and the two failure states (screenshots in test-output/)', () => {
  let own: OwnParser | undefined;

  afterEach(async () => {
    await closeAllEditors();
  });

  after(async () => {
    await own?.stop();
    await setSetting('parser.url', e2eConfig().parserAddress);
    await setSetting('parser.circuitBreaker.cooldown', undefined);
    await (await avapApi()).ready();
  });

  it('valid document: a check mark', async () => {
    await openAvap('valid.avap');
    const api = await avapApi();
    const look = await waitFor('valid look', () => (api.statusLook()?.kind === 'valid' ? api.statusLook() : undefined));
    assert.equal(look.icon, 'check');
    assert.equal(look.background, undefined);
    const facts = await captureWorkbench({ screenshot: 'state-valid' });
    const item = avapStatusItem(facts);
    assert.ok(item, JSON.stringify(facts.statusItems));
    assert.match(item.text, /AVAP: valid/);
    assert.ok(item.icons.includes('codicon-check'), item.icons.join(','));
    assert.equal(facts.squigglyErrors, 0);
  });

  it('INVALID: error squiggles on the failing lines and an error-state status item', async () => {
    own = await startOwnParser();
    await setSetting('parser.circuitBreaker.cooldown', 1);
    await setSetting('parser.url', own.address);
    const api = await avapApi();
    await waitFor('the new parser URL in use', () => (api.parserAddress() === own?.address ? true : undefined));
    await api.ready();
    const editor = await openAvap('invalid.avap');
    await waitFor('diagnostics', () => (parserDiagnostics(editor.document.uri).length >= 2 ? true : undefined));
    const look = await waitFor('invalid look', () =>
      api.statusLook()?.kind === 'invalid' ? api.statusLook() : undefined,
    );
    assert.equal(look.icon, 'error');
    assert.equal(look.background, 'error');

    const facts = await captureUntil(
      (f) => f.squigglyErrors >= 2 && /AVAP: invalid/.test(avapStatusItem(f)?.text ?? ''),
      {
        screenshot: 'failure-invalid-unresolved',
      },
    );
    assert.ok(facts.squigglyErrors >= 2, `squiggles: ${facts.squigglyErrors}`);
    const item = avapStatusItem(facts);
    assert.ok(item, JSON.stringify(facts.statusItems));
    assert.match(item.text, /AVAP: invalid/);
    assert.ok(item.icons.includes('codicon-error'), item.icons.join(','));
    assert.match(item.className, /error-kind/);
    assert.ok(facts.screenshotPath && existsSync(facts.screenshotPath));
  });

  it('PARSER_UNAVAILABLE: no squiggles, a warning-state item with a disconnected icon and the circuit in the tooltip', async () => {
    assert.ok(own, 'runs after the INVALID test, which starts the parser it stops');
    const api = await avapApi();
    const editor = await openAvap('invalid.avap');
    await waitFor('diagnostics while the parser is up', () =>
      parserDiagnostics(editor.document.uri).length >= 2 ? true : undefined,
    );
    await own.stop();
    // An edit asks the (now stopped) parser again.
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// edited while the parser is down\n'));
    const look = await waitFor('unavailable look', () =>
      api.statusLook()?.kind === 'unavailable' ? api.statusLook() : undefined,
    );
    assert.equal(parserDiagnostics(editor.document.uri).length, 0, 'nothing was proven wrong: no squiggles');
    assert.equal(look.icon, 'debug-disconnect');
    assert.equal(look.background, 'warning');
    assert.equal(look.label, 'AVAP: unvalidated — parser unavailable');
    assert.match(look.tooltip, /Circuit: (CLOSED|OPEN)/);
    // The document carries a visible "unvalidated" label until it is validated.
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      editor.document.uri,
    );
    assert.ok(
      lenses.some((l) => l.command?.title.includes('unvalidated')),
      lenses.map((l) => l.command?.title).join(' | '),
    );

    const facts = await captureUntil(
      (f) => f.codeLenses.some((t) => t.includes('unvalidated')) && /unavailable/.test(avapStatusItem(f)?.text ?? ''),
      { screenshot: 'failure-parser-unavailable' },
    );
    assert.equal(facts.squigglyErrors, 0);
    assert.ok(
      facts.codeLenses.some((t) => t.includes('unvalidated')),
      `the label is shown: ${JSON.stringify(facts.codeLenses)}`,
    );
    const item = avapStatusItem(facts);
    assert.ok(item, JSON.stringify(facts.statusItems));
    assert.match(item.text, /AVAP: unvalidated — parser unavailable/);
    assert.ok(item.icons.includes('codicon-debug-disconnect'), item.icons.join(','));
    assert.match(item.className, /warning-kind/);
    assert.ok(facts.screenshotPath && existsSync(facts.screenshotPath));

    // Three failures open the circuit; the tooltip then tells when the next probe happens.
    // Each edit is one more failed call: wait for the breaker to count it (or open) before the next.
    for (let i = 0; i < 3; i++) {
      const before = api.circuit().consecutiveFailures;
      await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '//\n'));
      await waitFor(`failed call ${i + 1} counted`, () => {
        const c = api.circuit();
        return c.state === 'open' || c.consecutiveFailures > before ? true : undefined;
      });
    }
    const open = await waitFor('open circuit', () => (api.circuit().state === 'open' ? api.statusLook() : undefined));
    assert.match(open?.tooltip ?? '', /Circuit: OPEN — next probe/);

    // The parser comes back on the same port: open documents are re-validated on their own.
    own = await startOwnParser(own.port);
    await waitFor(
      'squiggles back after the parser returns',
      () => (parserDiagnostics(editor.document.uri).length >= 2 ? true : undefined),
      30_000,
    );
    assert.equal(api.statusLook()?.kind, 'invalid');
    const back = await captureUntil((f) => !f.codeLenses.some((t) => t.includes('unvalidated')));
    assert.ok(
      !back.codeLenses.some((t) => t.includes('unvalidated')),
      `the label is gone: ${JSON.stringify(back.codeLenses)}`,
    );
  });
});
