/**
 * Code actions over LSP: each diagnostic's proven fix as a quick fix (matched
 * to its trace entry by rule code and range, never by message), "fix all" as
 * a quick fix when more than one proven fix waits (as ESLint does), and the
 * `source.fixAll.avap` source action — every proven fix applied at once by
 * the parser library's fixAll, re-validated, as one edit — for
 * `codeActionsOnSave`.
 */
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver/node';
import { DIAGNOSTIC_SOURCE, LineMap, replacementFix, type DiagnosticSpec } from '../language';
import { fixAll, validateAvap } from '../parser';
import type { Verdict } from './verdicts';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.avap`;
const FIX_ALL_TITLE = 'Fix All Auto-fixable Problems';

/** Does an action of `kind` answer a request for the kinds `only` (hierarchical: `source` covers `source.fixAll.avap`)? */
function kindRequested(kind: string, only: readonly string[] | undefined): boolean {
  return only === undefined || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

function sameRange(spec: DiagnosticSpec, d: Diagnostic): boolean {
  return (
    d.range.start.line === spec.line &&
    d.range.end.line === spec.line &&
    d.range.start.character === spec.start &&
    d.range.end.character === spec.end
  );
}

/** The whole document's fixes as one edit (undefined when nothing can be fixed). */
async function fixAllEdit(text: string, verdict: Verdict | undefined): Promise<TextEdit | undefined> {
  const result = await fixAll(
    text,
    (source) => Promise.resolve(validateAvap(source)),
    verdict ? { initial: verdict.result } : {},
  );
  if (!result.edit) return undefined;
  const lines = new LineMap(text);
  return { range: lines.rangeOf(result.edit.start, result.edit.end), newText: result.edit.newText };
}

export async function codeActions(
  params: CodeActionParams,
  text: string,
  verdict: Verdict | undefined,
): Promise<CodeAction[]> {
  const uri = params.textDocument.uri;
  const only = params.context.only;
  const actions: CodeAction[] = [];
  const specs = verdict?.specs ?? [];
  if (kindRequested(CodeActionKind.QuickFix, only)) {
    const lines = new LineMap(text);
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const spec = specs.find((s) => s.code === diagnostic.code && sameRange(s, diagnostic));
      if (!spec) continue;
      let title: string;
      let edits: TextEdit[];
      if (spec.fix) {
        title = spec.fix.title;
        edits = spec.fix.edits.map((e) => ({
          range: {
            start: { line: e.line, character: e.character },
            end: { line: e.endLine, character: e.endCharacter },
          },
          newText: e.newText,
        }));
      } else {
        const current = text.slice(lines.offsetAt(diagnostic.range.start), lines.offsetAt(diagnostic.range.end));
        const fix = replacementFix(spec, current);
        if (!fix) continue;
        title = fix.title;
        edits = [{ range: diagnostic.range, newText: fix.replacement }];
      }
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: { changes: { [uri]: edits } },
      });
    }
    const fixable = specs.filter((s) => s.fix && s.severity === 'error').length;
    if (fixable > 1 && actions.length > 0) {
      const edit = await fixAllEdit(text, verdict);
      if (edit)
        actions.push({
          title: `${FIX_ALL_TITLE} (AVAP)`,
          kind: CodeActionKind.QuickFix,
          diagnostics: params.context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE),
          edit: { changes: { [uri]: [edit] } },
        });
    }
  }
  // Asked for by kind (on save), it is always checked afresh; in the menu, offered when there is something to fix.
  const askedForFixAll = only !== undefined && kindRequested(FIX_ALL_KIND, only);
  if (askedForFixAll || (only === undefined && specs.some((s) => s.fix && s.severity === 'error'))) {
    const edit = await fixAllEdit(text, verdict);
    if (edit) actions.push({ title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, edit: { changes: { [uri]: [edit] } } });
  }
  return actions;
}
