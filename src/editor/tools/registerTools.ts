/**
 * The thin editor adapter of the language-model tools: registers
 * `avap_validate` and `avap_search_docs` (declared in package.json's
 * `contributes.languageModelTools`) with `vscode.lm.registerTool`. Everything
 * else — input contracts, pre-validation, execution, post-execution status —
 * is editor-free in src/tools. Invalid input goes back to the model verbatim
 * as `{valid: false, error, suggestions}`; nothing throws out of the host.
 */
import * as vscode from 'vscode';
import { TOOL_DEFINITIONS, type ToolDefinition } from '../../tools/definitions';
import { runTool, toolResultText, type DocsIndexSource, type ToolRun, type ValidateFn } from '../../tools/execute';

export interface LanguageModelToolDeps {
  /** Validates through the editor's parser connection (ParserPort.validate). */
  validate: ValidateFn;
  /** The knowledge base, or why it is unavailable. */
  docs: DocsIndexSource;
  /** Receives one line per invocation (the AVAP output channel). */
  log?: (line: string) => void;
}

function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}

function tool(definition: ToolDefinition<unknown>, deps: LanguageModelToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation() {
      return { invocationMessage: definition.invocationMessage };
    },
    async invoke(options, token) {
      const { signal, dispose } = signalOf(token);
      let run: ToolRun;
      try {
        run = await runTool(definition.name, options.input, deps, signal);
      } catch (err) {
        // runTool returns failures as data; this only guards the host against a bug.
        const message = err instanceof Error ? err.message : String(err);
        run = { kind: 'done', result: { tool: definition.name, status: 'FAILED', summary: `internal error: ${message}`, facts: {}, next: [] } };
      } finally {
        dispose();
      }
      deps.log?.(`tool ${definition.name}: ${run.kind === 'invalid' ? `invalid input — ${run.result.error}` : run.result.status}`);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(toolResultText(run))]);
    },
  };
}

/**
 * Registers every tool; the returned disposable (also pushed to the context)
 * unregisters them. On a host without the language-model API it logs and
 * registers nothing.
 */
export function registerLanguageModelTools(context: vscode.ExtensionContext, deps: LanguageModelToolDeps): vscode.Disposable {
  if (typeof vscode.lm?.registerTool !== 'function') {
    deps.log?.('language-model tools not registered: this editor has no vscode.lm.registerTool');
    return new vscode.Disposable(() => undefined);
  }
  const registrations = TOOL_DEFINITIONS.map((definition) =>
    vscode.lm.registerTool(definition.name, tool(definition as ToolDefinition<unknown>, deps)));
  const all = vscode.Disposable.from(...registrations);
  context.subscriptions.push(all);
  deps.log?.(`language-model tools registered: ${TOOL_DEFINITIONS.map((d) => d.name).join(', ')}`);
  return all;
}
