/* global acquireVsCodeApi -- provided by the VS Code webview host */
// The result view's script. The extension sends one message per run, {type: 'run', model}, where model is
// src/runs/resultModel.ts's RunViewModel; the page is rebuilt from it with DOM nodes and text only (never
// innerHTML), so nothing a program returns is read as HTML. Clicks go back as messages: reveal a line, copy
// the body, cancel the run in progress.
(function () {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('run');

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

  /** A line number that opens the program there (plain text when the run was not of a document). */
  function lineLink(model, line) {
    if (!line) return el('span', 'line none', '–');
    if (!model.linked) return el('span', 'line', String(line));
    return button('line line-link', String(line), `Open line ${line}`, () =>
      vscode.postMessage({ type: 'reveal', line }),
    );
  }

  function scalar(value) {
    if (value === null) return el('span', 'json-literal', 'null');
    switch (typeof value) {
      case 'string':
        return el('span', 'json-string', JSON.stringify(value));
      case 'number':
        return el('span', 'json-number', String(value));
      case 'boolean':
        return el('span', 'json-literal', String(value));
      default:
        return el('span', 'json-literal', String(value));
    }
  }

  /** The JSON tree: objects and lists fold (a <details> each), keys and values in the theme's colours. */
  function tree(value, key, last) {
    const comma = last ? '' : ',';
    const line = el('div', 'json-line');
    const label = () => {
      if (key === undefined) return;
      line.appendChild(el('span', 'json-key', JSON.stringify(key)));
      line.appendChild(el('span', 'json-punct', ': '));
    };
    const isList = Array.isArray(value);
    if (value === null || typeof value !== 'object') {
      label();
      line.appendChild(scalar(value));
      if (comma) line.appendChild(el('span', 'json-punct', comma));
      return line;
    }
    const entries = isList ? value.map((v, i) => [i, v]) : Object.entries(value);
    const [open, close] = isList ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      label();
      line.appendChild(el('span', 'json-punct', `${open}${close}${comma}`));
      return line;
    }
    const fold = el('details', 'json-fold');
    fold.open = true;
    const summary = el('summary', 'json-line');
    if (key !== undefined) {
      summary.appendChild(el('span', 'json-key', JSON.stringify(key)));
      summary.appendChild(el('span', 'json-punct', ': '));
    }
    summary.appendChild(el('span', 'json-punct', open));
    summary.appendChild(
      el('span', 'json-count', ` ${entries.length} ${isList ? 'item' : 'key'}${entries.length === 1 ? '' : 's'} `),
    );
    fold.appendChild(summary);
    const children = el('div', 'json-children');
    entries.forEach(([k, v], i) => children.appendChild(tree(v, isList ? undefined : k, i === entries.length - 1)));
    fold.appendChild(children);
    fold.appendChild(el('div', 'json-line json-punct', `${close}${comma}`));
    return fold;
  }

  function section(id, title, count, open) {
    const details = el('details', `section section-${id}`);
    details.id = id;
    details.open = open;
    const summary = el('summary', '', title);
    if (count !== undefined) summary.appendChild(el('span', 'count', ` ${count}`));
    details.appendChild(summary);
    return details;
  }

  function render(model) {
    const parts = [];
    const header = el('header', 'header');
    const title = el('div', 'title');
    title.appendChild(el('span', 'file', model.title));
    title.appendChild(el('span', 'request', model.request));
    header.appendChild(title);
    const status = el('div', 'status-row');
    if (model.running) {
      status.appendChild(el('span', 'status running', 'Running…'));
      status.appendChild(button('cancel', 'Cancel', 'Stop the run', () => vscode.postMessage({ type: 'cancel' })));
    } else {
      status.appendChild(
        el('span', `status tone-${model.tone}`, `${model.status}${model.statusText ? ` ${model.statusText}` : ''}`),
      );
      status.appendChild(el('span', 'duration', `${model.durationMs} ms`));
    }
    header.appendChild(status);
    parts.push(header);
    if (model.running) return parts;

    if (model.error) {
      const error = el('div', 'error');
      error.appendChild(el('span', 'label', 'Uncaught error'));
      if (model.error.line) {
        error.appendChild(el('span', '', ' at line '));
        error.appendChild(lineLink(model, model.error.line));
      }
      error.appendChild(el('span', 'message', `: ${model.error.text} [${model.error.code}]`));
      parts.push(error);
    }

    const response = section('response', 'Response', undefined, true);
    const tools = el('div', 'tools');
    tools.appendChild(
      button('copy', 'Copy', 'Copy the response body (JSON)', () => vscode.postMessage({ type: 'copy' })),
    );
    response.appendChild(tools);
    const json = el('div', 'json');
    json.appendChild(tree(model.body, undefined, true));
    response.appendChild(json);
    parts.push(response);

    const logs = section('logs', 'Logs', model.logs.length, true);
    const logList = el('ul', 'lines');
    for (const entry of model.logs) {
      const item = el('li', entry.ok ? 'ok' : 'failed');
      item.appendChild(lineLink(model, entry.line));
      item.appendChild(el('span', 'text', `${entry.ok ? '✓' : '✗'} ${entry.text}`));
      logList.appendChild(item);
    }
    logs.appendChild(logList);
    parts.push(logs);

    if (model.portability.length > 0) {
      const notes = section('portability', 'Portability', model.portability.length, true);
      const list = el('ul', 'lines');
      for (const note of model.portability) {
        const item = el('li', 'note');
        item.appendChild(lineLink(model, note.line));
        item.appendChild(el('span', 'text', note.text));
        item.appendChild(el('span', 'rule', ` (${note.rule})`));
        list.appendChild(item);
      }
      notes.appendChild(list);
      parts.push(notes);
    }

    const steps = section('steps', 'Steps', model.steps.length + model.stepsHidden, true);
    const table = el('table', 'steps');
    const head = el('tr');
    for (const name of ['Line', 'Command', 'Changed']) head.appendChild(el('th', '', name));
    table.appendChild(head);
    for (const step of model.steps) {
      const row = el('tr', 'step');
      const cell = el('td');
      cell.appendChild(lineLink(model, step.line));
      row.appendChild(cell);
      row.appendChild(el('td', 'command', step.command));
      row.appendChild(el('td', 'changes', step.changes));
      table.appendChild(row);
    }
    steps.appendChild(table);
    if (model.stepsHidden > 0)
      steps.appendChild(el('p', 'hidden', `… and ${model.stepsHidden} more steps, not listed.`));
    parts.push(steps);
    return parts;
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || message.type !== 'run') return;
    root.replaceChildren(...render(message.model));
  });
  vscode.postMessage({ type: 'ready' });
})();
