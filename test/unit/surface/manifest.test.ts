/**
 * The contributed surface is declared once (src/surface) and everything else follows from it: package.json's
 * `contributes` and `activationEvents` and the README's settings table are regenerated here in memory and must
 * equal the files (CI's check; `npm run contributes` writes them), and the declarations keep the rules a
 * setting must follow (mirrored variables in name and unit, one key each, conversions the core can make).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generatedFiles } from '../../../scripts/lib/contributes';
import {
  COMMAND_LIST,
  coreValue,
  relativeKey,
  SETTING_ENTRIES,
  settingDefaults,
  settingsTable,
  type SettingDeclaration,
} from '../../../src/surface';

const ROOT = path.join(__dirname, '..', '..', '..');

/** The top-level keys (and `contributes.*` keys) where two manifests differ. */
function differences(actual: Record<string, unknown>, expected: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  return [...keys].flatMap((key) => {
    if (JSON.stringify(actual[key]) === JSON.stringify(expected[key])) return [];
    if (key !== 'contributes') return [key];
    return differences(
      (actual[key] ?? {}) as Record<string, unknown>,
      (expected[key] ?? {}) as Record<string, unknown>,
    ).map((k) => `contributes.${k}`);
  });
}

describe('surface: package.json and the README are generated from the declarations', () => {
  const files = generatedFiles(ROOT);

  it('package.json is what src/surface (and src/tools) generate', () => {
    const file = files.find((f) => f.path.endsWith('package.json'));
    assert.ok(file);
    const text = readFileSync(file.path, 'utf8');
    const stale = differences(
      JSON.parse(text) as Record<string, unknown>,
      JSON.parse(file.text) as Record<string, unknown>,
    );
    assert.deepEqual(
      stale,
      [],
      `package.json differs from the declarations in ${stale.join(', ')}: run npm run contributes`,
    );
    assert.equal(text, file.text, 'package.json is out of date (order or layout): run npm run contributes');
  });

  it("the README's settings table is what src/surface/settings.ts generates", () => {
    const file = files.find((f) => f.path.endsWith('README.md'));
    assert.ok(file);
    assert.ok(file.text.includes(settingsTable()));
    assert.equal(
      readFileSync(file.path, 'utf8'),
      file.text,
      "the README's settings table differs from src/surface/settings.ts: run npm run contributes",
    );
  });
});

describe('surface: the declarations', () => {
  const declarations: SettingDeclaration[] = SETTING_ENTRIES.map((e) => e.declaration);

  it('one key per setting, under avap., in the Settings editor order', () => {
    const keys = declarations.map((d) => d.key);
    assert.equal(new Set(keys).size, keys.length, 'a key declared twice');
    assert.ok(keys.every((k) => /^avap\.[a-zA-Z]+(\.[a-zA-Z]+)+$/.test(k)));
    const orders = declarations.map((d) => d.order);
    assert.deepEqual(
      orders,
      [...orders].sort((a, b) => a - b),
      'declared in the order the Settings editor shows them',
    );
    assert.equal(new Set(orders).size, orders.length);
    assert.ok(SETTING_ENTRIES.every((e) => relativeKey(e.declaration).startsWith(`${e.section}.`)));
  });

  it('a mirrored variable is named in the description and has the setting’s unit', () => {
    for (const d of declarations) {
      const unit = d.type === 'number' || d.type === 'integer' ? d.unit : undefined;
      if (!d.env) {
        assert.doesNotMatch(d.description, /env `/, `${d.key} names a variable it does not declare`);
        continue;
      }
      assert.match(d.env.name, /^[A-Z][A-Z0-9_]+$/);
      assert.ok(
        d.description.includes(`env \`${d.env.name}\``),
        `${d.key}: the description names env \`${d.env.name}\``,
      );
      assert.equal(
        d.env.unit,
        unit,
        `${d.key} is in ${unit ?? 'no unit'}, ${d.env.name} in ${d.env.unit ?? 'no unit'}`,
      );
    }
  });

  it('defaults fit their own bounds and every unit conversion to the core exists', () => {
    const defaults = settingDefaults() as unknown as Record<string, Record<string, unknown>>;
    for (const { section, field, declaration: d } of SETTING_ENTRIES) {
      assert.deepEqual(defaults[section]?.[field], d.default, d.key);
      if (d.type === 'number' || d.type === 'integer') {
        assert.ok(d.minimum === undefined || d.default >= d.minimum, `${d.key} default below its minimum`);
        assert.ok(d.maximum === undefined || d.default <= d.maximum, `${d.key} default above its maximum`);
        assert.ok(d.enum === undefined || d.enum.includes(d.default), `${d.key} default not among its values`);
      }
      if (d.core) assert.doesNotThrow(() => coreValue(d, d.default), d.key);
    }
  });

  it('one id per command, a title each, menus only where the command is', () => {
    const ids = COMMAND_LIST.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'a command declared twice');
    assert.ok(COMMAND_LIST.every((c) => c.title.trim() !== ''));
    assert.ok(
      COMMAND_LIST.filter((c) => c.keybinding).every((c) => c.keybinding?.when.includes('editorLangId == avap')),
    );
  });
});
