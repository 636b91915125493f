/**
 * AVAP: Ask… — the chat view (a webview view). The extension renders model
 * output to safe HTML (renderMarkdown: no raw HTML, code highlighted and
 * escaped) and the webview only places it. Everything the webview asks for —
 * a code block's Insert at Cursor / Run / Open in Editor / Copy / Regenerate
 * with Trace, a trace line, a source, a link — comes back as a message naming the
 * answer and the block; the code acted on is the extension's own copy, never
 * text from the webview. Links are opened after checkLink. Thumbs up/down are
 * recorded on the answer's training signal (AssistantService). The
 * conversation is kept per workspace (workspaceState) and shown again when
 * the view reloads; AVAP: Clear Chat forgets it.
 */
import * as vscode from 'vscode';
import type { ConversationTurn, PipelineRequest, PipelineResult, QueryType } from '../../core';
import type { KnowledgeBase } from '../../knowledge';
import { CHAT_VIEW_ID } from '../assistant/ids';
import { COMMANDS } from '../commandIds';
import type { OutputLog } from '../output/outputLog';
import type { AssistantService } from '../services/assistantService';
import { AnswerStream, finalAnswerView, type AnswerView, type CodeBlockView } from './chatModel';
import { knowledgeUri } from './knowledgeDocuments';
import { activeThemeTokenColors } from './themeTokenColors';
import { checkLink } from './links';
import { newNonce, webviewShell } from './webviewHtml';

/** The workspaceState key of the conversation. */
const CHAT_STATE_KEY = 'avap.chat.conversation.v1';
/** Turns kept (the oldest are dropped). */
const KEPT_TURNS = 50;

type BlockAction = 'insert' | 'run' | 'open' | 'copy' | 'regenerate';

type FromWebview =
  | { type: 'ready' }
  | { type: 'ask'; text: string }
  | { type: 'cancel' }
  | { type: 'feedback'; id: string; vote: 'up' | 'down' }
  | { type: 'openLink'; href: string }
  | { type: 'blockAction'; action: BlockAction; id: string; block: number }
  | { type: 'openTrace'; id: string; block: number; entry: number }
  | { type: 'openSource'; docId: string };

/** One turn as the workspace keeps it. */
export interface StoredTurn {
  id: string;
  query: string;
  answer: AnswerView;
  queryType?: QueryType;
  /** The answer text (the conversation history for the next question). */
  text: string;
  generationId?: string;
}

export interface ChatViewOptions {
  /** Where the conversation is kept (the extension's workspaceState). */
  state: vscode.Memento;
  /** The shipped knowledge base: document titles for the sources. */
  knowledge: () => KnowledgeBase | undefined;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private counter = 0;
  private inFlight: AbortController | undefined;
  private readonly ready: { promise: Promise<void>; resolve: () => void };
  /** The last text editor the user worked in (Insert at Cursor's target while the chat has focus). */
  private lastEditor: vscode.TextEditor | undefined;
  /** The untitled document each block was opened in (trace lines reuse it while it is open). */
  private readonly opened = new Map<string, vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly assistant: AssistantService,
    private readonly output: OutputLog,
    private readonly options: ChatViewOptions,
  ) {
    this.ready = ChatViewProvider.deferred();
    this.lastEditor = ChatViewProvider.editable(vscode.window.activeTextEditor);
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        this.lastEditor = ChatViewProvider.editable(editor) ?? this.lastEditor;
      }),
      vscode.window.onDidChangeActiveColorTheme(() => void this.postThemeColors()),
    );
  }

  private static deferred(): { promise: Promise<void>; resolve: () => void } {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  }

  /** Editors code may be inserted into (not the output panel, not read-only views). */
  private static editable(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
    return editor && ['file', 'untitled', 'vscode-remote', 'vscode-userdata'].includes(editor.document.uri.scheme)
      ? editor
      : undefined;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [media],
    };
    const nonce = newNonce();
    const script = (uri: vscode.Uri) => view.webview.asWebviewUri(uri).toString();
    view.webview.html = webviewShell({
      cspSource: view.webview.cspSource,
      nonce,
      title: 'Ask AVAP',
      styleUris: [view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css')).toString()],
      scriptUris: [script(vscode.Uri.joinPath(media, 'chat.js'))],
      body: `<main id="log" aria-live="polite"></main>
<form id="ask"><textarea id="question" rows="3" placeholder="Ask about AVAP, or ask for code… (Enter sends, Shift+Enter adds a line)" aria-label="Question"></textarea>
<div class="row"><button type="submit" id="send">Ask</button><button type="button" id="cancel" disabled>Cancel</button></div></form>`,
    });
    this.disposables.push(view.webview.onDidReceiveMessage((message: FromWebview) => this.onMessage(message)));
  }

  private onMessage(message: FromWebview): void {
    switch (message?.type) {
      case 'ready':
        // The script (re)started: show the conversation kept for this workspace.
        void this.postThemeColors();
        void this.post({ type: 'restore', turns: this.turns() });
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
      case 'blockAction':
        void this.blockAction(message.action, message.id, message.block);
        break;
      case 'openTrace':
        void this.openTrace(message.id, message.block, message.entry);
        break;
      case 'openSource':
        void this.openSource(message.docId);
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

  /** The conversation kept for this workspace. */
  turns(): StoredTurn[] {
    const stored = this.options.state.get<unknown>(CHAT_STATE_KEY);
    return Array.isArray(stored)
      ? stored.filter(
          (t: unknown): t is StoredTurn =>
            typeof (t as Partial<StoredTurn> | null)?.id === 'string' &&
            typeof (t as Partial<StoredTurn> | null)?.answer === 'object',
        )
      : [];
  }

  private async keep(turn: StoredTurn): Promise<void> {
    const turns = [...this.turns().filter((t) => t.id !== turn.id), turn].slice(-KEPT_TURNS);
    await this.options.state.update(CHAT_STATE_KEY, turns);
  }

  /** Forgets the conversation (view title action *Clear Chat*). */
  async clear(): Promise<void> {
    this.inFlight?.abort();
    await this.options.state.update(CHAT_STATE_KEY, undefined);
    this.opened.clear();
    await this.post({ type: 'clear' });
    this.output.info('chat: conversation cleared');
  }

  /** Asks one question; streams the answer into the view; resolves with the pipeline result. */
  ask(query: string): Promise<PipelineResult> {
    return this.run(query, { query });
  }

  private async run(shown: string, request: PipelineRequest): Promise<PipelineResult> {
    await this.reveal();
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const id = `a${Date.now().toString(36)}${++this.counter}`;
    const history: ConversationTurn[] = this.turns()
      .filter((t) => t.text)
      .slice(-6)
      .flatMap((t) => [
        { role: 'user' as const, content: t.query },
        { role: 'assistant' as const, content: t.text, ...(t.queryType ? { queryType: t.queryType } : {}) },
      ]);
    void this.post({ type: 'question', id, text: shown });
    const stream = new AnswerStream(id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      void this.post({ type: 'answer', answer: stream.view() });
    };
    const result = await this.assistant.run(
      { ...request, history },
      {
        signal: controller.signal,
        onMessage: (message) => {
          if (message.is_final) return;
          stream.push(message.text, message.attempt, message.replace === true);
          timer ??= setTimeout(flush, 50);
        },
      },
    );
    if (timer) clearTimeout(timer);
    if (this.inFlight === controller) this.inFlight = undefined;
    const answer = finalAnswerView(
      id,
      result,
      (docId) => this.options.knowledge()?.docs.find((d) => d.id === docId)?.title,
    );
    await this.keep({
      id,
      query: shown,
      answer,
      queryType: result.queryType,
      text: result.text,
      generationId: result.generationId,
    });
    await this.post({ type: 'answer', answer });
    return result;
  }

  private block(id: unknown, index: unknown): { turn: StoredTurn; block: CodeBlockView } | undefined {
    const turn = this.turns().find((t) => t.id === id);
    const block = turn?.answer.blocks?.find((b) => b.index === index);
    return turn && block ? { turn, block } : undefined;
  }

  private async blockAction(action: unknown, id: unknown, index: unknown): Promise<void> {
    const found = this.block(id, index);
    if (!found) return;
    const { turn, block } = found;
    switch (action) {
      case 'insert':
        await this.insertAtCursor(block.code);
        break;
      case 'run': {
        // Tried before it is inserted: run on the AVAP runtime, with the request of the .avap file you were in.
        const from = this.lastEditor?.document;
        this.output.info(`chat: run block ${block.index + 1} of ${turn.id}`);
        await vscode.commands.executeCommand(COMMANDS.runFile.id, {
          source: block.code,
          title: `chat block ${block.index + 1}`,
          ...(from?.languageId === 'avap' ? { requestFrom: from.uri.toString() } : {}),
        });
        break;
      }
      case 'open':
        await this.openBlock(turn, block);
        break;
      case 'copy':
        await vscode.env.clipboard.writeText(block.code);
        vscode.window.setStatusBarMessage('AVAP: code copied', 3000);
        this.output.info(`chat: copied block ${block.index + 1} of ${turn.id} (${block.label})`);
        break;
      case 'regenerate':
        if (block.state !== 'invalid') return;
        this.output.info(
          `chat: regenerate with trace, block ${block.index + 1} of ${turn.id} (${block.trace.length} trace entries)`,
        );
        await this.run(`Regenerate with Trace: ${turn.query}`, {
          query: turn.query,
          forceType: 'CODE_GENERATION',
          correction: { code: block.code, trace: block.trace },
          filename: 'chat.avap',
        });
        break;
      default:
        break;
    }
  }

  private async insertAtCursor(code: string): Promise<void> {
    const editor = ChatViewProvider.editable(vscode.window.activeTextEditor) ?? this.visible(this.lastEditor);
    if (!editor) {
      const choice = await vscode.window.showWarningMessage(
        'AVAP: open an editor to insert the code at its cursor.',
        'Open in Editor',
      );
      if (choice) await this.showUntitled(code);
      return;
    }
    const done = await editor.edit((edit) => {
      for (const selection of editor.selections) edit.replace(selection, code);
    });
    if (!done) {
      void vscode.window.showWarningMessage(
        'AVAP: the code could not be inserted (the document changed or is read-only).',
      );
      return;
    }
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
    this.output.info(
      `chat: inserted ${code.split('\n').length} line(s) at the cursor of ${editor.document.uri.path.split('/').pop()}`,
    );
  }

  private visible(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
    return editor && vscode.window.visibleTextEditors.includes(editor) ? editor : undefined;
  }

  private async showUntitled(code: string): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument({ language: 'avap', content: code });
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Opens the block in an untitled AVAP document (the same one again while it is open). */
  private async openBlock(turn: StoredTurn, block: CodeBlockView): Promise<vscode.TextEditor> {
    const key = `${turn.id}#${block.index}`;
    const known = this.opened.get(key);
    const open =
      known && vscode.workspace.textDocuments.find((d) => d.uri.toString() === known.toString() && !d.isClosed);
    if (open) return vscode.window.showTextDocument(open, { preview: false });
    const editor = await this.showUntitled(block.code);
    this.opened.set(key, editor.document.uri);
    return editor;
  }

  private async openTrace(id: unknown, index: unknown, entryIndex: unknown): Promise<void> {
    const found = this.block(id, index);
    const entry = typeof entryIndex === 'number' ? found?.block.trace[entryIndex] : undefined;
    if (!found || !entry) return;
    const editor = await this.openBlock(found.turn, found.block);
    const line = Math.max(0, Math.min(entry.line - 1, editor.document.lineCount - 1));
    const start = new vscode.Position(line, Math.max(0, entry.column - 1));
    const end = new vscode.Position(line, Math.max(start.character, (entry.endColumn ?? entry.column) - 1));
    editor.selection = new vscode.Selection(start, end);
    editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async openSource(docId: unknown): Promise<void> {
    if (typeof docId !== 'string') return;
    const doc = this.options.knowledge()?.docs.find((d) => d.id === docId);
    if (!doc) {
      void vscode.window.showInformationMessage(
        `AVAP: "${docId}" is not in the knowledge base that ships with the extension.`,
      );
      return;
    }
    const text = await vscode.workspace.openTextDocument(knowledgeUri(doc.id, doc.title));
    await vscode.window.showTextDocument(text, { preview: true });
  }

  /** Code in the chat takes the theme's token colours, as in an .avap editor. */
  private async postThemeColors(): Promise<void> {
    await this.post({ type: 'theme', colors: await activeThemeTokenColors() });
  }

  async post(message: unknown): Promise<void> {
    await this.view?.webview.postMessage(message);
  }

  private async openLink(href: unknown): Promise<void> {
    const checked = checkLink(typeof href === 'string' ? href : '');
    if (!checked.ok) {
      this.output.warn(`chat: refused to open a link (${checked.error.message})`);
      return;
    }
    await vscode.env.openExternal(vscode.Uri.parse(checked.value, true));
  }

  private async recordFeedback(id: unknown, vote: unknown): Promise<void> {
    const turn = this.turns().find((t) => t.id === id);
    if (!turn?.generationId || (vote !== 'up' && vote !== 'down')) return;
    const recorded = await this.assistant.recordFeedback(turn.generationId, vote);
    this.output.info(
      `chat: feedback ${vote} for ${turn.generationId}${recorded ? '' : ' (not recorded: training signals are off or the store cannot be written)'}`,
    );
  }

  dispose(): void {
    this.inFlight?.abort();
    for (const d of this.disposables) d.dispose();
  }
}
