/**
 * The chat view's test hooks, created only when the extension runs in test
 * mode (ExtensionMode.Test: the extension-host test runner). The webview then
 * also loads test/e2e/webview/chatTestHooks.js (never packaged), which answers
 * these requests: describe the DOM, click a button by its label, type into
 * the question box. A user's installation has none of this.
 */

/** What the webview reports about its own DOM (the XSS and code-block tests read it). */
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

export class ChatTestBridge {
  private counter = 0;
  private readonly pending = new Map<number, (value: unknown) => void>();
  /** Links the user asked to open (after the check). */
  readonly openedLinks: string[] = [];

  constructor(private readonly post: (message: unknown) => Promise<void>) {}

  /** Sends a request to the webview's hooks and waits for its answer. */
  request<T>(message: Record<string, unknown>, timeoutMs = 10_000): Promise<T> {
    const requestId = ++this.counter;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`the chat view did not answer ${String(message.type)}`));
      }, timeoutMs);
      this.pending.set(requestId, (value) => {
        clearTimeout(timer);
        resolve(value as T);
      });
      void this.post({ ...message, requestId });
    });
  }

  settle(requestId: unknown, value: unknown): void {
    if (typeof requestId !== 'number') return;
    this.pending.get(requestId)?.(value);
    this.pending.delete(requestId);
  }

  probe(): Promise<ChatProbe> {
    return this.request<ChatProbe>({ type: 'test.probe' });
  }

  /** Clicks the last answer's button whose label starts with `label` (within code block `block` when given). */
  click(label: string, block?: number): Promise<boolean> {
    return this.request<boolean>({ type: 'test.click', label, ...(block === undefined ? {} : { block }) });
  }

  /** Types `text` into the question box and presses Enter (Shift+Enter with `shift`); resolves with the box's text after. */
  type(text: string, shift = false): Promise<string> {
    return this.request<string>({ type: 'test.type', text, shift });
  }
}
