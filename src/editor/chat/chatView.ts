/**
 * AVAP: Ask… — the chat view (a webview view). The extension renders model
 * output to safe HTML (renderMarkdown) and the webview only places it; links
 * come back as messages and are opened after checkLink. Thumbs up/down are
 * recorded on the answer's training signal (AssistantService).
 */
import * as vscode from 'vscode';
import type { ConversationTurn, PipelineResult } from '../../core';
import { CHAT_VIEW_ID } from '../assistant/ids';
import type { OutputLog } from '../output/outputLog';
import type { AssistantService } from '../services/assistantService';
import { AnswerStream, finalAnswerView } from './chatModel';
import { checkLink } from './links';
import { newNonce, webviewShell } from './webviewHtml';

export { CHAT_VIEW_ID };

/** What the webview reports about its own DOM (the XSS test reads it). */
export interface ChatProbe {
  /** Script elements inside answers, or carrying code from an answer. */
  scripts: number;
  inlineHandlers: number;
  javascriptLinks: number;
  iframes: number;
  images: number;
  xssMarker: boolean;
  answers: number;
  lastAnswerText: string;
  /** The status, route and notes under the last answer, as shown. */
  lastAnswerMeta: string;
  /** The last answer is still a draft (streamed, not yet validated). */
  lastAnswerDraft: boolean;
  links: string[];
}

type FromWebview =
  | { type: 'ready' }
  | { type: 'ask'; text: string }
  | { type: 'cancel' }
  | { type: 'feedback'; id: string; vote: 'up' | 'down' }
  | { type: 'openLink'; href: string }
  | { type: 'probeResult'; requestId: number; probe: ChatProbe };

interface Turn {
  id: string;
  query: string;
  result?: PipelineResult;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly turns: Turn[] = [];
  private counter = 0;
  private inFlight: AbortController | undefined;
  private readonly ready: { promise: Promise<void>; resolve: () => void };
  private readonly probes = new Map<number, (probe: ChatProbe) => void>();
  /** Links the user asked to open (after the check), for the tests. */
  readonly openedLinks: string[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly assistant: AssistantService,
    private readonly output: OutputLog,
  ) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => { resolve = r; });
    this.ready = { promise, resolve };
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [media] };
    const nonce = newNonce();
    view.webview.html = webviewShell({
      cspSource: view.webview.cspSource,
      nonce,
      title: 'Ask AVAP',
      styleUris: [view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css')).toString()],
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.js')).toString(),
      body: `<main id="log" aria-live="polite"></main>
<form id="ask"><textarea id="question" rows="3" placeholder="Ask about AVAP, or ask for code…" aria-label="Question"></textarea>
<div class="row"><button type="submit" id="send">Ask</button><button type="button" id="cancel" disabled>Cancel</button></div></form>`,
    });
    this.disposables.push(view.webview.onDidReceiveMessage((message: FromWebview) => this.onMessage(message)));
  }

  private onMessage(message: FromWebview): void {
    switch (message?.type) {
      case 'ready':
        this.ready.resolve();
        break;
      case 'ask':
        if (typeof message.text === 'string' && message.text.trim()) void this.ask(message.text.trim());
        break;
      case 'cancel':
        this.inFlight?.abort();
        break;
      case 'feedback':
        void this.recordFeedback(message.id, message.vote);
        break;
      case 'openLink':
        void this.openLink(message.href);
        break;
      case 'probeResult':
        this.probes.get(message.requestId)?.(message.probe);
        this.probes.delete(message.requestId);
        break;
      default:
        break;
    }
  }

  /** Shows the view and waits until its script is running. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    await Promise.race([this.ready.promise, new Promise((r) => setTimeout(r, 15_000))]);
  }

  /** Asks one question; streams the answer into the view; resolves with the pipeline result. */
  async ask(query: string): Promise<PipelineResult> {
    await this.reveal();
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const id = `a${++this.counter}`;
    const turn: Turn = { id, query };
    const history: ConversationTurn[] = this.turns.filter((t) => t.result).slice(-6).flatMap((t) => [
      { role: 'user' as const, content: t.query },
      { role: 'assistant' as const, content: t.result?.text ?? '', queryType: t.result?.queryType },
    ]);
    this.turns.push(turn);
    void this.post({ type: 'question', id, text: query });
    const stream = new AnswerStream(id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      void this.post({ type: 'answer', answer: stream.view() });
    };
    const result = await this.assistant.run({ query, history }, {
      signal: controller.signal,
      onMessage: (message) => {
        if (message.is_final) return;
        stream.push(message.text, message.attempt);
        timer ??= setTimeout(flush, 50);
      },
    });
    if (timer) clearTimeout(timer);
    if (this.inFlight === controller) this.inFlight = undefined;
    turn.result = result;
    await this.post({ type: 'answer', answer: finalAnswerView(id, result) });
    return result;
  }

  /** Asks the webview to describe its DOM. */
  probe(): Promise<ChatProbe> {
    const requestId = ++this.counter;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the chat view did not answer the probe')), 10_000);
      this.probes.set(requestId, (probe) => {
        clearTimeout(timer);
        resolve(probe);
      });
      void this.post({ type: 'probe', requestId });
    });
  }

  /** Sends a test-only instruction (e.g. click the first link) to the webview. */
  postForTest(message: { type: 'clickFirstLink' } | { type: 'clickVote'; vote: 'up' | 'down' }): Promise<void> {
    return this.post(message);
  }

  private async post(message: unknown): Promise<void> {
    await this.view?.webview.postMessage(message);
  }

  private async openLink(href: unknown): Promise<void> {
    const checked = checkLink(typeof href === 'string' ? href : '');
    if (!checked.ok) {
      this.output.warn(`chat: refused to open a link (${checked.reason})`);
      return;
    }
    this.openedLinks.push(checked.href);
    await vscode.env.openExternal(vscode.Uri.parse(checked.href, true));
  }

  private async recordFeedback(id: unknown, vote: unknown): Promise<void> {
    const turn = this.turns.find((t) => t.id === id);
    if (!turn?.result || (vote !== 'up' && vote !== 'down')) return;
    const recorded = await this.assistant.recordFeedback(turn.result.generationId, vote);
    this.output.info(`chat: feedback ${vote} for ${turn.result.generationId}${recorded ? '' : ' (not recorded: training signals are off or the store cannot be written)'}`);
  }

  dispose(): void {
    this.inFlight?.abort();
    for (const d of this.disposables) d.dispose();
  }
}
