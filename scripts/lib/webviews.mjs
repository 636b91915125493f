// The extension's webviews as the e2e runner sees them from outside the extension host: each webview is an iframe
// of the workbench page, which Playwright reaches (nested frames included). The runner reads what their DOM holds
// and clicks and types in them as a user does — the extension carries no code for its tests.
//
// The functions passed to frame.evaluate() run inside the webview's page: each must be self-contained.
/* global document, getComputedStyle, KeyboardEvent, window -- used inside frame.evaluate, which runs in the browser */

/** Which of the extension's webviews a frame shows: 'chat' (the chat view), 'run' (the result view) or ''. */
function whichView() {
  if (document.getElementById('log') && document.getElementById('question') && document.getElementById('ask'))
    return 'chat';
  const run = document.getElementById('run');
  if (run && run.tagName === 'MAIN') return 'run';
  return '';
}

/** What the chat view's DOM holds (the XSS, code-block and honest-status tests read it). */
function probeChat() {
  const text = (node) => (node ? node.textContent || '' : '');
  const answer = [...document.querySelectorAll('#log .answer')].pop();
  const all = [...document.querySelectorAll('*')];
  const log = document.getElementById('log');
  return {
    // The webview host injects a script of its own; what matters is that no answer holds one
    // and that no script carries code from the answer.
    scripts:
      log.querySelectorAll('script').length +
      [...document.querySelectorAll('script')].filter((s) => (s.textContent || '').includes('__avapXss')).length,
    inlineHandlers: all.filter((node) => [...node.attributes].some((a) => a.name.toLowerCase().startsWith('on')))
      .length,
    javascriptLinks: [...document.querySelectorAll('[href],[src],[data-href]')].filter((node) =>
      /^\s*javascript:/i.test(
        node.getAttribute('href') || node.getAttribute('src') || node.getAttribute('data-href') || '',
      ),
    ).length,
    iframes: document.querySelectorAll('iframe').length,
    images: document.querySelectorAll('img').length,
    xssMarker: typeof window.__avapXss !== 'undefined',
    answers: document.querySelectorAll('#log .answer').length,
    questions: [...document.querySelectorAll('#log .question')].map(text),
    lastAnswerText: text(answer && answer.querySelector('.body')),
    lastAnswerMeta: text(answer && answer.querySelector('.meta')),
    lastAnswerDraft: Boolean(answer && answer.classList.contains('draft')),
    // The verdict (or the error) is shown: neither waiting for the first piece nor a draft.
    lastAnswerFinal: Boolean(answer && !answer.classList.contains('pending') && !answer.classList.contains('draft')),
    links: [...document.querySelectorAll('a.avap-link')].map((a) => a.getAttribute('data-href')),
    blocks: answer
      ? [...answer.querySelectorAll('.codeblock')].map((block) => ({
          badge: text(block.querySelector('.block-badge')).trim(),
          badgeColor: getComputedStyle(block.querySelector('.block-badge') || block).backgroundColor,
          actions: [...block.querySelectorAll('.block-actions button')].map(text),
          trace: [...block.querySelectorAll('.block-trace button')].map(text),
          highlighted: block.querySelectorAll('pre code span[class^="tok-"]').length,
          // The colour each token text is shown in (e.g. { addParam: 'rgb(…)' }).
          tokenColors: Object.fromEntries(
            [...block.querySelectorAll('pre code span[class^="tok-"]')].map((s) => [
              text(s),
              getComputedStyle(s).color,
            ]),
          ),
          code: text(block.querySelector('pre code')),
        }))
      : [],
    sources: answer ? [...answer.querySelectorAll('.source-link')].map(text) : [],
    // Whether the newest turn is in sight (the view follows an answer as it streams).
    lastTurnInSight: (() => {
      const turn = [...document.querySelectorAll('#log .turn')].pop();
      if (!turn) return true;
      const form = document.getElementById('ask').getBoundingClientRect();
      const rect = turn.getBoundingClientRect();
      return rect.top < form.top && rect.bottom > 0;
    })(),
    scroll: [
      document.scrollingElement.scrollTop,
      document.scrollingElement.scrollHeight,
      document.scrollingElement.clientHeight,
      document.body.scrollTop,
      document.body.scrollHeight,
      document.body.clientHeight,
      window.innerHeight,
    ].join(','),
  };
}

/** Clicks the chat's last answer's button or link (within its code block `block`) whose label starts with `label`. */
function clickChat({ label, block }) {
  const text = (node) => (node ? node.textContent || '' : '');
  const answer = [...document.querySelectorAll('#log .answer')].pop();
  if (!answer) return false;
  const scope = block === undefined || block === null ? answer : answer.querySelectorAll('.codeblock')[block];
  const target = scope && [...scope.querySelectorAll('button, a')].find((b) => text(b).trim().startsWith(label));
  if (!target) return false;
  target.click();
  return true;
}

/**
 * Types into the question box and presses Enter (or Shift+Enter) as the page sees it: the key event goes to the
 * box, and a key the page's script did not take adds the new line, as the browser would. The browser's keyboard
 * focus stays where it was (real keys would leave it in the webview, and later tests press keys in the editor).
 */
function typeChat({ text, shift }) {
  const box = document.getElementById('question');
  box.value = text;
  const init = { key: 'Enter', code: 'Enter', shiftKey: shift, bubbles: true, cancelable: true };
  if (box.dispatchEvent(new KeyboardEvent('keydown', init))) box.value += '\n';
  return box.value;
}

/** What the result view's DOM holds. */
function probeRun() {
  const text = (node) => (node ? (node.textContent || '').trim() : '');
  const all = (selector) => [...document.querySelectorAll(selector)];
  return {
    title: text(document.querySelector('.file')),
    status: text(document.querySelector('.status')),
    request: text(document.querySelector('.request')),
    body: text(document.querySelector('.json')),
    error: text(document.querySelector('.error')),
    logs: all('.section-logs li').map(text),
    portability: all('.section-portability li').map(text),
    steps: all('table.steps tr.step').map((row) => [...row.children].map(text).join(' | ')),
    running: Boolean(document.querySelector('.status.running')),
    folds: all('.json-fold').length,
  };
}

/** Clicks, in the result view, the first button or summary whose text starts with `label`. */
function clickRun({ label }) {
  const text = (node) => (node ? (node.textContent || '').trim() : '');
  const target = [...document.querySelectorAll('button, summary')].find((b) => text(b).startsWith(label));
  if (!target) return false;
  target.click();
  return true;
}

/** The frame showing `view` ('chat' or 'run'), waited for up to `timeoutMs` (a webview loads after it is shown). */
async function findFrame(page, view, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        if ((await frame.evaluate(whichView)) === view) return frame;
      } catch {
        // a frame that went away, or one still loading
      }
    }
    if (Date.now() > deadline) throw new Error(`no ${view === 'chat' ? 'chat view' : 'result view'} on screen`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * One request of the suite about a webview: `{ view: 'chat'|'run', action: 'probe'|'click'|'type', label?, block?,
 * text?, shift? }`. Answers the probe's facts, whether a click found its target, or the question box's text after
 * typing.
 */
export async function serveWebview(page, request) {
  const frame = await findFrame(page, request.view, request.timeoutMs ?? 10_000);
  if (request.action === 'probe') return frame.evaluate(request.view === 'chat' ? probeChat : probeRun);
  if (request.action === 'click')
    return frame.evaluate(request.view === 'chat' ? clickChat : clickRun, {
      label: String(request.label),
      block: request.block ?? null,
    });
  if (request.action === 'type' && request.view === 'chat')
    return frame.evaluate(typeChat, { text: String(request.text), shift: Boolean(request.shift) });
  throw new Error(`unknown webview request: ${JSON.stringify(request)}`);
}
