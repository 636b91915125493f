/**
 * The one table of command ids (src/editor/commandIds.ts) is what
 * package.json contributes, and the editor registers commands through it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// internal-import: the command table, kept equal to package.json
import { ASSISTANT_COMMANDS, COMMAND_IDS, COMMANDS, EDITOR_COMMANDS } from '../../../src/editor/commandIds';

const root = path.resolve(__dirname, '..', '..', '..');

interface Manifest {
  contributes: { commands: { command: string }[]; menus?: Record<string, { command: string }[]> };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    return e.name.endsWith('.ts') ? [file] : [];
  });
}

describe('editor: the command id table', () => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

  it('matches package.json contributes.commands exactly', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual([...COMMAND_IDS].sort(), [...contributed].sort());
    assert.equal(new Set(COMMAND_IDS).size, COMMAND_IDS.length, 'an id in the table twice');
  });

  it('every command a menu names is in the table', () => {
    const inMenus = Object.values(manifest.contributes.menus ?? {})
      .flat()
      .map((m) => m.command);
    assert.deepEqual(
      inMenus.filter((id) => !(COMMAND_IDS as readonly string[]).includes(id)),
      [],
    );
  });

  it('assistant commands are exactly the rows on the assistant side; the editor features keep what needs only the parser', () => {
    assert.deepEqual(
      [...ASSISTANT_COMMANDS].sort(),
      Object.values(COMMANDS)
        .filter((c) => c.side === 'assistant')
        .map((c) => c.id)
        .sort(),
    );
    // The run commands are the editor features' too: they load the runner bundle on first use, not the assistant.
    assert.deepEqual([...EDITOR_COMMANDS].sort(), [
      'avap.addTestCaseFromLastRun',
      'avap.editRunRequest',
      'avap.fixAll',
      'avap.openExample',
      'avap.openWalkthrough',
      'avap.resetParserCircuit',
      'avap.runFile',
      'avap.showOutput',
      'avap.testFile',
      'avap.validateDocument',
    ]);
    assert.deepEqual(
      [...EDITOR_COMMANDS, ...ASSISTANT_COMMANDS].sort(),
      [...COMMAND_IDS].sort(),
      'every command has a stand-in until its bundle starts',
    );
  });

  it('the editor spells no command id outside the table', () => {
    const spelled: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src', 'editor'))) {
      if (file.endsWith('commandIds.ts')) continue;
      const text = readFileSync(file, 'utf8');
      for (const id of COMMAND_IDS) if (text.includes(`'${id}'`)) spelled.push(`${path.relative(root, file)}: ${id}`);
    }
    assert.deepEqual(spelled, []);
  });
});
