/**
 * The thin editor adapter of the language-model tools: implements
 * `avap_validate` and `avap_search_docs` (declared in package.json's
 * `contributes.languageModelTools`, registered by the entry). Everything
 * else — input contracts, pre-validation, execution, post-execution status —
 * is editor-free in src/tools. Invalid input goes back to the model verbatim
 * as `{valid: false, error, suggestions}`; nothing throws out of the host.
 */
import * as vscode from 'vscode';
import {
  TOOL_DEFINITIONS,
  type ToolDefinition,
  runTool,
  toolResultText,
  type DocsIndexSource,
  type ToolRun,
  type ValidateFn,
} from '../../tools';

export interface LanguageModelToolDeps {
  /** Validates through the editor's parser connection (ParserPort.validate). */
  validate: ValidateFn;
  /** The knowledge base, or why it is unavailable. */
  docs: DocsIndexSource;
  /** Receives one line per invocation (the AVAP Assistant output channel). */
  log?: (line: string) => void;
}

function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return {
    signal: controller.signal,
    dispose: () => {
      subscription.dispose();
    },
  };
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
        run = {
          kind: 'done',
          result: {
            tool: definition.name,
            status: 'FAILED',
            summary: `internal error: ${message}`,
            facts: {},
            next: [],
          },
        };
      } finally {
        dispose();
      }
      deps.log?.(
        `tool ${definition.name}: ${run.kind === 'invalid' ? `invalid input — ${run.result.error}` : run.result.status}`,
      );
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(toolResultText(run))]);
    },
  };
}

/**
 * Every tool by name. The entry registers the names package.json contributes
 * at activation (src/editor/assistant/seam.ts) and hands each call to these,
 * loaded with the assistant on the first call.
 */
export function languageModelTools(deps: LanguageModelToolDeps): Map<string, vscode.LanguageModelTool<unknown>> {
  return new Map(
    TOOL_DEFINITIONS.map((definition) => [definition.name, tool(definition as ToolDefinition<unknown>, deps)]),
  );
}
