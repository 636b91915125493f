/**
 * The stand-ins of a lazy bundle (src/editor/lazy/lazyBundle.ts) in the real
 * VS Code: a command run before its bundle has loaded waits for the load and
 * gets the real command's answer; a load that fails leaves the stand-ins in
 * place, and the next use loads again. Drives a bundle of its own (commands
 * under `avapTest.`), not the extension's, so the order of loading is the
 * test's: the extension's own bundles load in activation.test.ts.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
// internal-import: the stand-in/lazy-load machinery, driven in the real host with a test bundle
import { LazyBundle } from '../../src/editor/lazy/lazyBundle';
// internal-import: the output channel log the lazy-load test reads
import { OutputLog } from '../../src/editor/output/outputLog';
import { waitFor } from './support/vscodeHelpers';

const ID = 'avapTest.lazyBundle.echo';

interface Gate {
  open(): void;
  opened: Promise<void>;
}

function gate(): Gate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('lazy bundles: stand-ins answer until the bundle has loaded', () => {
  const output = new OutputLog();
  const registered: vscode.Disposable[] = [];
  after(() => {
    for (const d of registered.splice(0)) d.dispose();
    output.dispose();
  });

  it('a command run before its bundle has loaded waits for it and gets the real answer; a failed load keeps the stand-in', async () => {
    let imports = 0;
    let failNext = true;
    const importGate = gate();
    const bundle = new LazyBundle(output, {
      name: 'test bundle',
      commands: [ID],
      importBundle: async () => {
        imports++;
        if (failNext) {
          failNext = false;
          throw new Error('the test bundle is missing');
        }
        await importGate.opened;
        return { prefix: 'real:' };
      },
      start: ({ prefix }) => {
        registered.push(vscode.commands.registerCommand(ID, (text: string) => `${prefix}${text}`));
        return { prefix };
      },
    });
    bundle.registerStandIns();
    registered.push(bundle);
    assert.ok(
      (await vscode.commands.getCommands(true)).includes(ID),
      'the stand-in is registered before anything loads',
    );
    assert.equal(imports, 0, 'registering loads nothing');

    // A load that fails: the error reaches the caller, the stand-in stays, nothing is half-loaded.
    await assert.rejects(bundle.load(), /the test bundle is missing/);
    assert.equal(bundle.requested, false, 'the failed load is forgotten, so the next use tries again');
    assert.equal(bundle.current, undefined);
    assert.ok((await vscode.commands.getCommands(true)).includes(ID), 'the stand-in is still registered');

    // The command runs while its bundle is still loading: the stand-in waits, then runs the real command.
    const answer = vscode.commands.executeCommand<string>(ID, 'hello');
    await waitFor('the stand-in to start the second load', () => (imports >= 2 ? true : undefined));
    assert.equal(imports, 2, 'the stand-in started the second load');
    assert.equal(bundle.current, undefined, 'the bundle is not loaded while its import is held');
    importGate.open();
    assert.equal(await answer, 'real:hello', 'the real command answered, with the arguments given to the stand-in');
    assert.deepEqual(bundle.current, { prefix: 'real:' });
    assert.ok(
      output.lines().some((l) => /test bundle loaded in \d+ ms/.test(l)),
      output.lines().join('\n'),
    );

    // Loaded: the real command answers directly, and nothing loads again.
    assert.equal(await vscode.commands.executeCommand<string>(ID, 'again'), 'real:again');
    assert.equal(imports, 2);
  });
});
