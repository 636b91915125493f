/* global acquireVsCodeApi -- provided by the VS Code webview host */
// The chat view's script. It never interprets model output: answers arrive as HTML the
// extension rendered with raw HTML disabled, and links are handed back to the extension.
(function () {
  const vscode = acquireVsCodeApi();
  const log = document.getElementById('log');
  const form = document.getElementById('ask');
  const question = document.getElementById('question');
  const cancel = document.getElementById('cancel');
  const answers = new Map();

  const STATUS_SYMBOL = { valid: '✓', invalid: '✗', unavailable: '⚠' };

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function addQuestion(id, text) {
    const turn = el('section', 'turn');
    turn.appendChild(el('div', 'question', text));
    const answer = el('div', 'answer pending');
    const body = el('div', 'body');
    const meta = el('div', 'meta');
    answer.append(body, meta);
    turn.appendChild(answer);
    log.appendChild(turn);
    answers.set(id, { answer, body, meta });
    cancel.disabled = false;
    turn.scrollIntoView({ block: 'end' });
  }

  function renderAnswer(view) {
    const slot = answers.get(view.id);
    if (!slot) return;
    slot.body.innerHTML = view.html;
    if (!view.final) {
      // A draft: the parser has not judged it yet, so it never looks valid.
      slot.answer.classList.add('draft');
      if (view.draft) slot.meta.replaceChildren(el('div', 'status status-pending', `⋯ ${view.draft.label}`));
      return;
    }
    slot.answer.classList.remove('draft');
    slot.answer.classList.remove('pending');
    cancel.disabled = true;
    slot.meta.replaceChildren();
    if (view.error) slot.meta.appendChild(el('div', 'error', view.error));
    if (view.status) {
      const badge = el('div', `status status-${view.status.kind}`, `${STATUS_SYMBOL[view.status.kind] || ''} ${view.status.label}`);
      slot.meta.appendChild(badge);
    }
    if (view.route) {
      const route = el('div', 'route');
      const parts = [`route: ${view.route.queryType}`];
      if (view.route.attempts > 1) parts.push(`${view.route.attempts} attempts`);
      if (view.route.relevanceRetry) parts.push('relevance retry');
      route.appendChild(el('span', '', parts.join(' · ')));
      if (view.route.degraded) route.appendChild(el('div', 'degraded', `⚠ ${view.route.degraded}`));
      for (const skipped of view.route.skippedRetries || []) route.appendChild(el('div', 'skipped', `retry skipped — ${skipped}`));
      if (view.route.sources.length > 0) {
        const list = el('ul', 'sources');
        for (const source of view.route.sources) list.appendChild(el('li', '', `${source.title} (${source.score})`));
        route.appendChild(list);
      }
      slot.meta.appendChild(route);
    }
    if (!view.error) {
      const votes = el('div', 'votes');
      for (const [vote, label] of [['up', '▲ helpful'], ['down', '▼ not helpful']]) {
        const button = el('button', `vote vote-${vote}`, label);
        button.type = 'button';
        button.title = vote === 'up' ? 'Helpful' : 'Not helpful';
        button.addEventListener('click', () => {
          vscode.postMessage({ type: 'feedback', id: view.id, vote });
          votes.querySelectorAll('button').forEach((b) => { b.disabled = true; });
          button.classList.add('chosen');
        });
        votes.appendChild(button);
      }
      slot.meta.appendChild(votes);
    }
  }

  function probe() {
    const all = [...document.querySelectorAll('*')];
    return {
      // The webview host injects a script of its own; what matters is that no answer holds one
      // and that no script carries code from the answer.
      scripts: log.querySelectorAll('script').length
        + [...document.querySelectorAll('script')].filter((s) => (s.textContent || '').includes('__avapXss')).length,
      inlineHandlers: all.filter((node) => [...node.attributes].some((a) => a.name.toLowerCase().startsWith('on'))).length,
      javascriptLinks: [...document.querySelectorAll('[href],[src],[data-href]')]
        .filter((node) => /^\s*javascript:/i.test(node.getAttribute('href') || node.getAttribute('src') || node.getAttribute('data-href') || '')).length,
      iframes: document.querySelectorAll('iframe').length,
      images: document.querySelectorAll('img').length,
      xssMarker: typeof window.__avapXss !== 'undefined',
      answers: answers.size,
      lastAnswerText: [...answers.values()].pop()?.body.textContent || '',
      lastAnswerMeta: [...answers.values()].pop()?.meta.textContent || '',
      lastAnswerDraft: Boolean([...answers.values()].pop()?.answer.classList.contains('draft')),
      links: [...document.querySelectorAll('a.avap-link')].map((a) => a.getAttribute('data-href')),
    };
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'question') addQuestion(message.id, message.text);
    else if (message.type === 'answer') renderAnswer(message.answer);
    else if (message.type === 'probe') vscode.postMessage({ type: 'probeResult', requestId: message.requestId, probe: probe() });
    else if (message.type === 'clickFirstLink') document.querySelector('a.avap-link')?.click();
    else if (message.type === 'clickVote') [...document.querySelectorAll(`button.vote-${message.vote === 'down' ? 'down' : 'up'}`)].pop()?.click();
  });

  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link) return;
    event.preventDefault();
    const href = link.getAttribute('data-href');
    if (href) vscode.postMessage({ type: 'openLink', href });
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = question.value.trim();
    if (!text) return;
    vscode.postMessage({ type: 'ask', text });
    question.value = '';
  });
  question.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));

  vscode.postMessage({ type: 'ready' });
})();
