/**
 * The extension's webviews — the chat view and the result view of AVAP: Run File — as a user sees them. The runner
 * (scripts/run-vscode-tests.mjs, scripts/lib/webviews.mjs) reads their DOM and clicks and types in them from
 * outside the extension host: each webview is a frame of the workbench page it drives. The extension has no code
 * for its tests; what a test cannot see on screen it reaches through the commands users have.
 */
import * as vscode from 'vscode';
import { askRunner } from './workbench';

/** What the chat view's DOM holds (the XSS, code-block and honest-status tests read it). */
export interface ChatProbe {
  /** Script elements inside answers, or carrying code from an answer. */
  scripts: number;
  inlineHandlers: number;
  javascriptLinks: number;
  iframes: number;
  images: number;
  xssMarker: boolean;
  answers: number;
  questions: string[];
  lastAnswerText: string;
  /** The status, route and notes under the last answer, as shown. */
  lastAnswerMeta: string;
  /** The last answer is still a draft (streamed, not yet validated). */
  lastAnswerDraft: boolean;
  /** The last answer's verdict (or error) is shown. */
  lastAnswerFinal: boolean;
  links: string[];
  /** The code blocks of the last answer: badge, action labels, trace lines, highlighted tokens, code. */
  blocks: {
    badge: string;
    badgeColor: string;
    actions: string[];
    trace: string[];
    highlighted: number;
    tokenColors: Record<string, string>;
    code: string;
  }[];
  /** The source titles under the last answer. */
  sources: string[];
  /** Some of the newest turn is in sight above the question box. */
  lastTurnInSight: boolean;
  scroll: string;
}

/** What the result view's DOM holds. */
export interface RunViewProbe {
  title: string;
  status: string;
  request: string;
  body: string;
  error: string;
  logs: string[];
  portability: string[];
  steps: string[];
  running: boolean;
  /** Folding handles (▸/▾) in the response tree. */
  folds: number;
}

type WebviewRequest =
  | { view: 'chat' | 'run'; action: 'probe' }
  | { view: 'chat' | 'run'; action: 'click'; label: string; block?: number }
  | { view: 'chat'; action: 'type'; text: string; shift: boolean };

async function ask<T>(request: WebviewRequest): Promise<T> {
  const answer = await askRunner<{ ok: boolean; error?: string; value: T }>(
    { webview: request },
    `${request.view} view`,
  );
  return answer.value;
}

/** The chat view, shown first each time (`avap.chat.focus`, the workbench's command for the view). */
export function chatView() {
  const shown = async () => {
    await vscode.commands.executeCommand('avap.chat.focus');
  };
  return {
    /** Describes what the chat view's DOM holds. */
    probe: async (): Promise<ChatProbe> => {
      await shown();
      return ask<ChatProbe>({ view: 'chat', action: 'probe' });
    },
    /** Clicks the last answer's button or link whose label starts with `label` (in code block `block`). */
    click: async (label: string, block?: number): Promise<boolean> => {
      await shown();
      return ask<boolean>({ view: 'chat', action: 'click', label, ...(block === undefined ? {} : { block }) });
    },
    /** Types into the question box and presses Enter (Shift+Enter with `shift`); resolves with what the box holds after. */
    type: async (text: string, shift = false): Promise<string> => {
      await shown();
      return ask<string>({ view: 'chat', action: 'type', text, shift });
    },
  };
}

/** The result view of AVAP: Run File. */
export function resultView() {
  return {
    probe: (): Promise<RunViewProbe> => ask<RunViewProbe>({ view: 'run', action: 'probe' }),
    /** Clicks, in the result view, the first button whose text starts with `label`. */
    click: (label: string): Promise<boolean> => ask<boolean>({ view: 'run', action: 'click', label }),
  };
}
