// Test hooks of the chat view, loaded into the webview (before media/chat.js) only when the extension
// runs in test mode (ExtensionMode.Test): never part of the packaged extension. The extension asks
// through messages; the hooks describe the DOM and click what a user would click, by its label.
(function () {
  let vscode;
  window.avapChatTestHooks = {
    attach(api) {
      vscode = api;
    },
  };

  const text = (node) => (node ? node.textContent || '' : '');
  const lastAnswer = () => [...document.querySelectorAll('#log .answer')].pop();

  function probe() {
    const all = [...document.querySelectorAll('*')];
    const log = document.getElementById('log');
    const answer = lastAnswer();
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

  /** Clicks the button of the last answer (or of its code block `block`) whose label starts with `label`. */
  function click(label, block) {
    const answer = lastAnswer();
    if (!answer) return false;
    const scope = block === undefined ? answer : answer.querySelectorAll('.codeblock')[block];
    const target = scope && [...scope.querySelectorAll('button, a')].find((b) => text(b).trim().startsWith(label));
    if (!target) return false;
    target.click();
    return true;
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || !vscode) return;
    if (message.type === 'test.probe')
      vscode.postMessage({ type: 'test.result', requestId: message.requestId, value: probe() });
    else if (message.type === 'test.click') {
      vscode.postMessage({
        type: 'test.result',
        requestId: message.requestId,
        value: click(String(message.label), message.block),
      });
    } else if (message.type === 'test.type') {
      // Types into the question box and presses Enter (or Shift+Enter) as a user does.
      const box = document.getElementById('question');
      box.value = String(message.text);
      const init = { key: 'Enter', code: 'Enter', shiftKey: Boolean(message.shift), bubbles: true, cancelable: true };
      const keydown = new KeyboardEvent('keydown', init);
      const sent = box.dispatchEvent(keydown);
      // A keydown the script did not take adds the new line, as the browser would.
      if (sent) box.value += '\n';
      vscode.postMessage({ type: 'test.result', requestId: message.requestId, value: box.value });
    }
  });
})();
