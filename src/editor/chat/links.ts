/** Which links from model output may be opened: web and mail only, well-formed, no credentials. Pure. */

export type LinkCheck = { ok: true; href: string } | { ok: false; reason: string };

const ALLOWED = new Set(['http:', 'https:', 'mailto:']);

export function checkLink(raw: string): LinkCheck {
  const href = raw.trim();
  if (href === '') return { ok: false, reason: 'empty link' };
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (!ALLOWED.has(url.protocol)) return { ok: false, reason: `scheme ${url.protocol} is not allowed` };
  if (url.username || url.password) return { ok: false, reason: 'links with credentials are not opened' };
  if (url.protocol !== 'mailto:' && !url.hostname) return { ok: false, reason: 'no host' };
  return { ok: true, href: url.toString() };
}
