import assert from 'node:assert/strict';
// internal-import: the link check of untrusted model output, tested without a webview
import { checkLink } from '../../../src/editor/chat/links';
// internal-import: the rendering of untrusted model output, tested without a webview
import { renderMarkdown } from '../../../src/editor/chat/renderMarkdown';
// internal-import: the webview's CSP and shell, tested without a webview
import { contentSecurityPolicy, newNonce, webviewShell } from '../../../src/editor/chat/webviewHtml';

const HOSTILE = [
  'Here is the code:',
  '<script>window.__avapXss = 1; alert("xss")</script>',
  '<img src=x onerror="window.__avapXss = 2">',
  '[click me](javascript:window.__avapXss=3)',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![remote](https://tracker.example/pixel.png)',
  '[docs](https://example.com/avap?x=1&y=2)',
  '```avap\naddVar(a, "<b>bold</b>")\n```',
].join('\n\n');

describe('editor: untrusted model output', () => {
  const html = renderMarkdown(HOSTILE);

  it('escapes raw HTML instead of emitting tags', () => {
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<img/i);
    assert.match(html, /&lt;script&gt;/);
    assert.match(html, /&lt;img src=x onerror=/);
    assert.doesNotMatch(html, /<[^>]*\son\w+=/i, 'no live event-handler attribute');
  });

  it('drops javascript: and data: links and never loads images', () => {
    assert.doesNotMatch(html, /href="javascript:/i);
    assert.doesNotMatch(html, /data-href="(javascript|data):/i);
    assert.doesNotMatch(html, /src="https:/);
    assert.match(html, /\[image: remote\]/);
  });

  it('turns allowed links into data-href anchors for the extension to open', () => {
    assert.match(html, /<a class="avap-link" href="#" data-href="https:\/\/example\.com\/avap\?x=1&amp;y=2"/);
    assert.equal((html.match(/<a /g) ?? []).length, 1);
  });

  it('keeps code blocks as escaped text (highlighted: every token escaped inside its span)', () => {
    assert.match(
      html,
      /<pre><code class="language-avap"><span class="tok-builtin">addVar<\/span>\(a, <span class="tok-string">&quot;&lt;b&gt;bold&lt;\/b&gt;&quot;<\/span>\)/,
    );
    assert.doesNotMatch(html, /<b>/);
  });

  it('allows only http, https and mailto links without credentials', () => {
    assert.deepEqual(checkLink('https://example.com/a'), { ok: true, value: 'https://example.com/a' });
    assert.equal(checkLink('mailto:team@example.com').ok, true);
    for (const bad of [
      'javascript:alert(1)',
      ' JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'command:workbench.action.terminal.new',
      'vscode://x',
      'https://user:pw@example.com/',
      '/relative',
      '',
    ]) {
      assert.equal(checkLink(bad).ok, false, bad);
    }
  });

  it('builds webview pages under a strict CSP with a nonce', () => {
    const nonce = newNonce();
    assert.match(nonce, /^[A-Za-z0-9]{16,}$/);
    assert.notEqual(nonce, newNonce());
    const csp = contentSecurityPolicy('vscode-resource:', nonce, true);
    assert.match(csp, /^default-src 'none'/);
    assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'`));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https:/);
    const page = webviewShell({
      cspSource: 'vscode-resource:',
      nonce,
      title: 'T"<',
      styleUris: ['s.css'],
      scriptUris: ['c.js'],
      body: '<main></main>',
    });
    assert.match(page, new RegExp(`<script nonce="${nonce}" src="c.js"></script>`));
    assert.match(page, /<title>T&quot;&lt;<\/title>/);
    assert.equal((page.match(/<script/g) ?? []).length, 1);
    assert.match(webviewShell({ cspSource: 'x', nonce, title: 't', styleUris: [], body: '' }), /script-src 'none'/);
  });
});
