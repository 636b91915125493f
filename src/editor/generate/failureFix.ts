/**
 * What to offer when a generation fails, decided by the pipeline's error code
 * (never its message): Ollama not answering → start it (`ollama serve`);
 * the model not pulled → the exact `ollama pull <model>` line of the
 * configured model; a timeout or another failure → only Retry and the output;
 * no assistant (an unreadable parser URL, or none set up) → the output, since
 * retrying cannot help until the setting is corrected.
 * Pure: generateCommands turns the actions into notification buttons.
 */
import type { PipelineErrorCode } from '../../core';

export type FailureAction =
  | { label: string; kind: 'terminal'; command: string }
  | { label: string; kind: 'copy'; text: string }
  | { label: 'Retry'; kind: 'retry' }
  | { label: 'Show Output'; kind: 'output' };

export interface FailureFix {
  /** A sentence that says how to fix it, appended to the error. */
  hint: string;
  /** Buttons, the fix first. */
  actions: FailureAction[];
}

const RETRY: FailureAction = { label: 'Retry', kind: 'retry' };
const OUTPUT: FailureAction = { label: 'Show Output', kind: 'output' };

/** The fix for a failed run of `model` against the Ollama server at `url`. */
export function failureFix(code: PipelineErrorCode, model: string, url: string): FailureFix {
  switch (code) {
    case 'llm-unreachable':
      return {
        hint: `Start Ollama (\`ollama serve\`) or point avap.ollama.url at a running server (now ${url}).`,
        actions: [{ label: 'Start Ollama', kind: 'terminal', command: 'ollama serve' }, RETRY, OUTPUT],
      };
    case 'model-missing': {
      const pull = `ollama pull ${model}`;
      return {
        hint: `Pull it: \`${pull}\`.`,
        // Three buttons at most: more are cut to "R…" in a toast.
        actions: [
          { label: 'Pull Model', kind: 'terminal', command: pull },
          { label: 'Copy Command', kind: 'copy', text: pull },
          RETRY,
        ],
      };
    }
    case 'llm-timeout':
      return {
        hint: 'The model took too long; a smaller model or a longer avap.ollama.idleTimeout may help.',
        actions: [RETRY, OUTPUT],
      };
    case 'cancelled':
      return { hint: '', actions: [] };
    case 'llm-failed':
      return { hint: '', actions: [RETRY, OUTPUT] };
    case 'bad-parser-url':
      return { hint: 'Correct avap.parser.url, or clear it to use the bundled parser.', actions: [OUTPUT] };
    case 'not-started':
      return { hint: '', actions: [OUTPUT] };
  }
}
