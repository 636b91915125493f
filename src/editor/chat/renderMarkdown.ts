/**
 * Model output → HTML for the webviews. Everything a model writes is
 * untrusted: markdown-it with raw HTML disabled (tags come out escaped),
 * images shown as their alt text (no remote loads), and links reduced to
 * `data-href` anchors that the webview hands to the extension, which checks
 * them again before opening. Links with any other scheme stay plain text.
 */
import MarkdownIt from 'markdown-it';
import { isAvapFenceLabel, plainlyNotAvap } from '../../core';
import { highlightAvap } from './highlight';
import { checkLink } from './links';

/**
 * Code blocks the chat decorates (badge, actions, trace): by the response line
 * of the block's first code line (the fence line + 1, 1-based), its index.
 */
export interface RenderEnv {
  blocks?: ReadonlyMap<number, number>;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });

md.renderer.rules.link_open = (tokens, idx) => {
  const token = tokens[idx];
  const href = token?.attrGet('href') ?? '';
  const checked = checkLink(href);
  if (!token || !checked.ok) {
    if (token) token.meta = { ...(token.meta as Record<string, unknown> | null), dropped: true };
    return '<span class="avap-link-blocked" title="link not allowed">';
  }
  const escaped = md.utils.escapeHtml(checked.value);
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

md.renderer.rules.fence = (tokens, idx, _options, env: RenderEnv | undefined) => {
  const token = tokens[idx];
  const lang = (token?.info ?? '').trim().split(/\s+/)[0] ?? '';
  const cls = /^[A-Za-z0-9_-]+$/.test(lang) ? ` class="language-${lang}"` : '';
  const content = token?.content ?? '';
  // AVAP (or unlabelled) code is highlighted with the extension's grammar; the highlighter escapes every token.
  const avap = isAvapFenceLabel(lang.toLowerCase());
  const code = avap ? highlightAvap(content.replace(/\n$/, '')) : md.utils.escapeHtml(content);
  const pre = `<pre><code${cls}>${code}</code></pre>`;
  const block = token?.map ? env?.blocks?.get(token.map[0] + 2) : undefined;
  return block === undefined ? `${pre}\n` : `<div class="codeblock" data-block="${block}">${pre}</div>\n`;
};

// An indented code block is code too: the pipeline validates it, and the chat marks it like a fence.
md.renderer.rules.code_block = (tokens, idx, _options, env: RenderEnv | undefined) => {
  const token = tokens[idx];
  const content = token?.content ?? '';
  const code = plainlyNotAvap(content) ? md.utils.escapeHtml(content) : highlightAvap(content.replace(/\n$/, ''));
  const pre = `<pre><code>${code}</code></pre>`;
  const block = token?.map ? env?.blocks?.get(token.map[0] + 1) : undefined;
  return block === undefined ? `${pre}\n` : `<div class="codeblock" data-block="${block}">${pre}</div>\n`;
};

export function renderMarkdown(text: string, env: RenderEnv = {}): string {
  return md.render(text, env);
}
