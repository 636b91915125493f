// Test hooks of the result view, loaded into its page (before media/run.js) only when the extension runs in
// test mode (ExtensionMode.Test): never part of the packaged extension. The extension asks through messages;
// the hooks describe the DOM and click what a user would click, by its text.
(function () {
  let vscode;
  window.avapRunTestHooks = {
    attach(api) {
      vscode = api;
    },
  };

  const text = (node) => (node ? (node.textContent || '').trim() : '');
  const all = (selector) => [...document.querySelectorAll(selector)];

  function probe() {
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

  function click(label) {
    const target = all('button, summary').find((b) => text(b).startsWith(label));
    if (!target) return false;
    target.click();
    return true;
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || !vscode) return;
    if (message.type === 'test.probe')
      vscode.postMessage({ type: 'test.result', requestId: message.requestId, value: probe() });
    else if (message.type === 'test.click')
      vscode.postMessage({ type: 'test.result', requestId: message.requestId, value: click(String(message.label)) });
  });
})();
