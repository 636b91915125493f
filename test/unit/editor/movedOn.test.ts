/**
 * Asked for (Get Started), the walkthrough is asked for again in place while the workbench has not yet
 * registered it, only if the developer has not moved on meanwhile: what counts as moving on, and what is the
 * walkthrough's own doing.
 */
import assert from 'node:assert/strict';
// internal-import: when the walkthrough counts as seen, tested without VS Code
import { isWelcomeTab, MovedOn } from '../../../src/editor/firstRun/movedOn';

const welcome = { label: 'Welcome', hasInput: false };
const ours = { label: 'Walkthrough: AVAP Assistant', hasInput: false };
const file = { label: 'invalid.avap', hasInput: true };
const START = 'file:///ws/invalid.avap';

describe('Get Started: has the developer moved on since the walkthrough was asked for?', () => {
  it("the Welcome editor coming and going, and the file getting its focus back, are the walkthrough's own doing", () => {
    const movedOn = new MovedOn(START);
    movedOn.tabs([welcome], []);
    movedOn.tabs([ours], [welcome]);
    movedOn.activeEditor(undefined);
    movedOn.activeEditor(START);
    movedOn.selection(false);
    movedOn.edit('output');
    assert.equal(movedOn.why, undefined);
    assert.ok(isWelcomeTab(welcome) && isWelcomeTab(ours) && !isWelcomeTab(file));
    assert.ok(!isWelcomeTab({ label: 'Welcome', hasInput: true }), 'a file named Welcome is not the Welcome editor');
  });

  const cases: [string, (m: MovedOn) => void, RegExp][] = [
    ['a file opened (Quick Open, the explorer)', (m) => m.tabs([file], []), /tab opened: invalid\.avap/],
    ['a tab closed', (m) => m.tabs([], [file]), /tab closed: invalid\.avap/],
    [
      'another text editor made active',
      (m) => m.activeEditor('file:///ws/other.avap'),
      /editor: file:\/\/\/ws\/other\.avap/,
    ],
    ['the cursor moved by keyboard, mouse or a command', (m) => m.selection(true), /cursor moved/],
    ['a file edited', (m) => m.edit('file'), /edited a document \(file\)/],
    ['an untitled document edited', (m) => m.edit('untitled'), /edited a document \(untitled\)/],
    ['a terminal', (m) => m.terminal(), /terminal/],
  ];
  for (const [name, act, why] of cases) {
    it(`${name}: moved on`, () => {
      const movedOn = new MovedOn(START);
      act(movedOn);
      assert.match(movedOn.why ?? '', why);
    });
  }

  it('the first reason is kept', () => {
    const movedOn = new MovedOn(START);
    movedOn.terminal();
    movedOn.tabs([file], []);
    assert.equal(movedOn.why, 'terminal');
  });
});
