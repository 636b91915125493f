/* global acquireVsCodeApi -- provided by the VS Code webview host */
// The chat view's script. It never interprets model output: answers arrive as HTML the
// extension rendered with raw HTML disabled (code already highlighted and escaped), and every
// action — on a code block, a trace line, a source, a link — is handed back to the extension
// as a message naming the answer and the block; the extension acts on its own copy of the code.
(function () {
  const vscode = acquireVsCodeApi();
  const log = document.getElementById('log');
  const form = document.getElementById('ask');
  const question = document.getElementById('question');
  const cancel = document.getElementById('cancel');
  const answers = new Map();

  const STATUS_SYMBOL = { valid: '✓', invalid: '✗', unavailable: '⚠', pending: '⋯' };
  // A block's state → the status item's look.
  const BLOCK_KIND = { valid: 'valid', invalid: 'invalid', unvalidated: 'unavailable', validating: 'pending' };
  const BLOCK_ACTIONS = [
    ['insert', 'Insert at Cursor'],
    ['run', 'Run'],
    ['open', 'Open in Editor'],
    ['copy', 'Copy'],
  ];

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(className, label, title, onClick) {
    const node = el('button', className, label);
    node.type = 'button';
    if (title) node.title = title;
    node.addEventListener('click', onClick);
    return node;
  }

  function addQuestion(id, text, live) {
    const turn = el('section', 'turn');
    turn.dataset.id = id;
    turn.appendChild(el('div', 'question', text));
    const answer = el('div', 'answer pending');
    const body = el('div', 'body');
    const meta = el('div', 'meta');
    answer.append(body, meta);
    turn.appendChild(answer);
    log.appendChild(turn);
    answers.set(id, { answer, body, meta });
    if (live) {
      cancel.disabled = false;
      scrollToBottom();
    }
  }

  /** Badge, actions and (for an invalid block) its trace, around each code block the extension marked. */
  function decorateBlocks(view, body) {
    for (const block of view.blocks || []) {
      const container = body.querySelector(`.codeblock[data-block="${Number(block.index)}"]`);
      if (!container) continue;
      const kind = BLOCK_KIND[block.state] || 'pending';
      container.classList.add(`block-${block.state}`);
      const header = el('div', 'block-header');
      header.appendChild(
        el('span', `status block-badge status-${kind}`, `${STATUS_SYMBOL[kind] || ''} ${block.label}`),
      );
      if (view.final) {
        const actions = el('span', 'block-actions');
        const post = (action) => () =>
          vscode.postMessage({ type: 'blockAction', action, id: view.id, block: block.index });
        for (const [action, label] of BLOCK_ACTIONS)
          actions.appendChild(button(`block-action action-${action}`, label, '', post(action)));
        if (block.state === 'invalid') {
          actions.appendChild(
            button(
              'block-action action-regenerate',
              'Regenerate with Trace',
              "Ask for a corrected version with the parser's trace",
              post('regenerate'),
            ),
          );
        }
        header.appendChild(actions);
      }
      container.insertBefore(header, container.firstChild);
      // An invalid block shows its whole trace; a valid one only its warnings.
      const shown = (block.trace || [])
        .map((entry, index) => ({ entry, index }))
        .filter(({ entry }) => block.state === 'invalid' || entry.severity === 'warning');
      if (shown.length > 0) {
        const list = el('ul', 'block-trace');
        shown.forEach(({ entry, index }) => {
          const item = el('li', `trace-${entry.severity === 'warning' ? 'warning' : 'error'}`);
          const text = `Line ${entry.line}:${entry.column} ${entry.message}${entry.code ? ` (${entry.code})` : ''}`;
          item.appendChild(
            button('trace-line', text, 'Open the code at this line', () => {
              vscode.postMessage({ type: 'openTrace', id: view.id, block: block.index, entry: index });
            }),
          );
          list.appendChild(item);
        });
        container.appendChild(list);
      }
    }
  }

  function renderAnswer(view, live) {
    const slot = answers.get(view.id);
    if (!slot) return;
    slot.body.innerHTML = view.html;
    decorateBlocks(view, slot.body);
    if (!view.final) {
      // A draft: the parser has not judged it yet, so it never looks valid.
      slot.answer.classList.add('draft');
      if (view.draft) slot.meta.replaceChildren(el('div', 'status status-pending', `⋯ ${view.draft.label}`));
      return;
    }
    slot.answer.classList.remove('draft');
    slot.answer.classList.remove('pending');
    if (live) cancel.disabled = true;
    slot.meta.replaceChildren();
    if (view.error) slot.meta.appendChild(el('div', 'error', view.error));
    if (view.status) {
      const badge = el(
        'div',
        `status status-${view.status.kind}`,
        `${STATUS_SYMBOL[view.status.kind] || ''} ${view.status.label}`,
      );
      slot.meta.appendChild(badge);
    }
    if (view.route) {
      const route = el('div', 'route');
      const parts = [`route: ${view.route.queryType}`];
      if (view.route.attempts > 1) parts.push(`${view.route.attempts} attempts`);
      if (view.route.relevanceRetry) parts.push('relevance retry');
      route.appendChild(el('span', '', parts.join(' · ')));
      if (view.route.degraded) route.appendChild(el('div', 'degraded', `⚠ ${view.route.degraded}`));
      for (const skipped of view.route.skippedRetries || [])
        route.appendChild(el('div', 'skipped', `retry skipped — ${skipped}`));
      if (view.route.sources.length > 0) {
        const sources = el('div', 'sources');
        sources.appendChild(el('span', 'sources-label', 'Sources: '));
        for (const source of view.route.sources) {
          sources.appendChild(
            button('source-link', source.title, 'Open this knowledge document (read-only)', () => {
              vscode.postMessage({ type: 'openSource', docId: source.docId });
            }),
          );
        }
        route.appendChild(sources);
      }
      slot.meta.appendChild(route);
    }
    if (!view.error) {
      const votes = el('div', 'votes');
      for (const [vote, label] of [
        ['up', '▲ helpful'],
        ['down', '▼ not helpful'],
      ]) {
        const choice = button(`vote vote-${vote}`, label, vote === 'up' ? 'Helpful' : 'Not helpful', () => {
          vscode.postMessage({ type: 'feedback', id: view.id, vote });
          votes.querySelectorAll('button').forEach((b) => {
            b.disabled = true;
          });
          choice.classList.add('chosen');
        });
        votes.appendChild(choice);
      }
      slot.meta.appendChild(votes);
    }
  }

  // The theme's token colours for the grammar's scopes (the stylesheet falls back to workbench colours).
  let tokenColorNames = [];
  function applyTokenColors(colors) {
    const root = document.documentElement.style;
    for (const name of tokenColorNames) root.removeProperty(name);
    tokenColorNames = [];
    for (const [cls, color] of Object.entries(colors || {})) {
      if (!/^tok-[a-z]+$/.test(cls) || !/^#[0-9a-f]{3,8}$/i.test(String(color))) continue;
      root.setProperty(`--avap-${cls}`, color);
      tokenColorNames.push(`--avap-${cls}`);
    }
  }

  function scrollToBottom() {
    const scroller = document.scrollingElement || document.documentElement;
    scroller.scrollTop = scroller.scrollHeight;
  }

  /** Keeps the newest text in sight while an answer streams, unless the user scrolled up to read. */
  function followBottom(update) {
    const scroller = document.scrollingElement || document.documentElement;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 48;
    update();
    if (atBottom) scrollToBottom();
  }

  function clear() {
    log.replaceChildren();
    answers.clear();
    cancel.disabled = true;
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'question') addQuestion(message.id, message.text, true);
    else if (message.type === 'answer') followBottom(() => renderAnswer(message.answer, true));
    else if (message.type === 'clear') clear();
    else if (message.type === 'theme') applyTokenColors(message.colors);
    else if (message.type === 'restore') {
      // The conversation kept in the workspace, shown again after a reload.
      clear();
      for (const turn of message.turns || []) {
        addQuestion(turn.id, turn.query, false);
        if (turn.answer) renderAnswer(turn.answer, false);
      }
      scrollToBottom();
    }
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
  // Enter sends; Shift+Enter adds a line (and Enter while an input method composes is the IME's).
  question.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));

  vscode.postMessage({ type: 'ready' });
})();
