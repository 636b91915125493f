/**
 * The --help texts: the pipeline options' shared help is kept
 * in whole pieces, and every command's usage holds each piece whole or not at
 * all — the filtering of lines that cut the validation note in half and ran
 * the next sentence into it (`serve --help`, `eval --help`) cannot come back.
 */
import assert from 'node:assert/strict';
import {
  CLI_OUTPUT_NOTE,
  optionLines,
  PIPELINE_ENV_NOTE,
  PIPELINE_EXIT_CODES,
  PIPELINE_OPTION_LINES,
  VALIDATION_NOTE,
} from '../../../src/cli/commands/pipelineUsage';
import { COMMANDS } from '../../../src/cli/registry';

const usageOf = (name: string) => {
  const command = COMMANDS.find((c) => c.name === name);
  assert.ok(command, name);
  return command.usage;
};

/** The pieces of shared text: each note, and each option's lines in either alignment. */
const PIECES: { name: string; texts: string[] }[] = [
  { name: 'environment note', texts: [PIPELINE_ENV_NOTE] },
  { name: 'validation note', texts: [VALIDATION_NOTE] },
  { name: 'output note', texts: [CLI_OUTPUT_NOTE] },
  { name: 'exit codes', texts: [PIPELINE_EXIT_CODES] },
  ...PIPELINE_OPTION_LINES.map((option) => ({
    name: option.flag,
    texts: [22, 23].map((width) => optionLines([option], width)),
  })),
];

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 12);

describe('cli: --help texts', () => {
  for (const command of COMMANDS) {
    it(`${command.name} --help holds each shared piece whole or not at all`, () => {
      const usage = command.usage;
      for (const piece of PIECES) {
        const whole = piece.texts.some((text) => usage.includes(text));
        if (whole) continue;
        const stray = piece.texts.flatMap(lines).filter((line) => usage.split('\n').some((l) => l.trim() === line));
        assert.deepEqual(stray, [], `${command.name} --help has part of the ${piece.name}`);
      }
    });
  }

  it('generate and ask keep the whole note on their output; serve and eval say what validation_status means, in whole sentences', () => {
    for (const name of ['generate', 'ask']) {
      assert.ok(usageOf(name).includes(`${VALIDATION_NOTE} ${CLI_OUTPUT_NOTE}`), name);
      assert.ok(usageOf(name).includes(PIPELINE_EXIT_CODES), name);
    }
    for (const name of ['serve', 'eval']) {
      const usage = usageOf(name);
      assert.ok(usage.includes(`${VALIDATION_NOTE}\n`), name);
      assert.ok(!usage.includes('draft'), `${name} does not describe the CLI's --json drafts`);
      assert.doesNotMatch(usage, /means\nlast has/, 'the sentence that once ran into the next');
    }
    assert.ok(
      usageOf('serve').includes(optionLines(PIPELINE_OPTION_LINES.slice(1), 23)),
      'serve: every option but --json',
    );
  });

  it('validate --help gives the exit code of PARSER_UNAVAILABLE and the JSON error object', () => {
    const usage = usageOf('validate');
    assert.match(usage, /4 PARSER_UNAVAILABLE/);
    assert.match(usage, /130 interrupted/);
    assert.match(usage, /\{file, error: \{code, message\}\}/);
  });
});
