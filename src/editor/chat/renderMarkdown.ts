/**
 * Model output → HTML for the webviews. Everything a model writes is
 * untrusted: markdown-it with raw HTML disabled (tags come out escaped),
 * images shown as their alt text (no remote loads), and links reduced to
 * `data-href` anchors that the webview hands to the extension, which checks
 * them again before opening. Links with any other scheme stay plain text.
 */
import MarkdownIt from 'markdown-it';
import { checkLink } from './links';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });

md.renderer.rules.link_open = (tokens, idx) => {
  const token = tokens[idx];
  const href = token?.attrGet('href') ?? '';
  const checked = checkLink(href);
  if (!token || !checked.ok) {
    if (token) token.meta = { ...(token.meta as Record<string, unknown> | null), dropped: true };
    return '<span class="avap-link-blocked" title="link not allowed">';
  }
  const escaped = md.utils.escapeHtml(checked.href);
  return `<a class="avap-link" href="#" data-href="${escaped}" title="${escaped}">`;
};

md.renderer.rules.link_close = (tokens, idx) => {
  // Find the matching opener to know whether it was dropped.
  let depth = 0;
  for (let i = idx - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t?.type === 'link_close') depth++;
    if (t?.type === 'link_open') {
      if (depth === 0) return (t.meta as { dropped?: boolean } | null)?.dropped ? '</span>' : '</a>';
      depth--;
    }
  }
  return '</a>';
};

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const alt = token?.content ?? '';
  return `<span class="avap-image-alt">[image: ${md.utils.escapeHtml(alt)}]</span>`;
};

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx];
  const lang = (token?.info ?? '').trim().split(/\s+/)[0] ?? '';
  const cls = /^[A-Za-z0-9_-]+$/.test(lang) ? ` class="language-${lang}"` : '';
  return `<pre><code${cls}>${md.utils.escapeHtml(token?.content ?? '')}</code></pre>\n`;
};

export function renderMarkdown(text: string): string {
  return md.render(text);
}
