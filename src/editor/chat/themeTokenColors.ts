/**
 * The active colour theme's token colours for the scopes of the AVAP grammar,
 * so code in the chat is coloured as it is in an .avap editor. A webview sees
 * the theme's workbench colours as CSS variables but not its token colours:
 * this reads the theme's JSON (its `include` chain too), picks for each scope
 * family the most specific matching `tokenColors` rule, and the chat sets the
 * result as `--avap-tok-*` variables. When a theme cannot be read, the chat's
 * stylesheet falls back to workbench colours.
 */
import * as vscode from 'vscode';
import { classColors, parseJsonc, type TokenColorRule } from './tokenColorRules';

interface ThemeContribution {
  id?: string;
  label?: string;
  path?: string;
  uiTheme?: string;
}

const UI_THEME_KIND: Record<string, number> = { vs: 1, 'vs-dark': 2, 'hc-black': 3, 'hc-light': 4 };

/** The theme's tokenColors, included themes first. */
async function readRules(file: vscode.Uri, depth = 0): Promise<TokenColorRule[]> {
  if (depth > 5) return [];
  const json = parseJsonc(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as {
    include?: string;
    tokenColors?: TokenColorRule[];
  };
  const included =
    typeof json.include === 'string' ? await readRules(vscode.Uri.joinPath(file, '..', json.include), depth + 1) : [];
  return [...included, ...(Array.isArray(json.tokenColors) ? json.tokenColors : [])];
}

/** The active theme's colours per token class; empty when the theme is unknown or unreadable. Never throws. */
export async function activeThemeTokenColors(): Promise<Record<string, string>> {
  try {
    const kind = vscode.window.activeColorTheme.kind;
    const fallback =
      kind === vscode.ColorThemeKind.Light
        ? 'Default Light Modern'
        : kind === vscode.ColorThemeKind.HighContrast
          ? 'Default High Contrast'
          : kind === vscode.ColorThemeKind.HighContrastLight
            ? 'Default High Contrast Light'
            : 'Default Dark Modern';
    const configured = vscode.workspace.getConfiguration('workbench').get<string>('colorTheme') || fallback;
    // The configured name is the default when unset, which need not be what the workbench shows: the kind decides.
    for (const name of configured === fallback ? [fallback] : [configured, fallback]) {
      for (const extension of vscode.extensions.all) {
        const themes =
          (extension.packageJSON as { contributes?: { themes?: ThemeContribution[] } }).contributes?.themes ?? [];
        const theme = themes.find((t) => (t.id ?? t.label) === name || t.label === name);
        if (!theme?.path || (theme.uiTheme && UI_THEME_KIND[theme.uiTheme] !== kind)) continue;
        return classColors(await readRules(vscode.Uri.joinPath(extension.extensionUri, theme.path)));
      }
    }
  } catch {
    // A theme we cannot read: the stylesheet's fallbacks apply.
  }
  return {};
}
