/** Which links from model output may be opened: web and mail only, well-formed, no credentials. Pure. */

import type { Failure, Result } from '../../result';

/** Why a link is refused; the message says it to people. */
type LinkRefusal = 'empty' | 'not-absolute' | 'scheme' | 'credentials' | 'no-host';

/** The normalised link to open, or why not. */
export type LinkCheck = Result<string, Failure<LinkRefusal>>;

const refuse = (kind: LinkRefusal, message: string): LinkCheck => ({ ok: false, error: { kind, message } });

const ALLOWED = new Set(['http:', 'https:', 'mailto:']);

export function checkLink(raw: string): LinkCheck {
  const href = raw.trim();
  if (href === '') return refuse('empty', 'empty link');
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return refuse('not-absolute', 'not an absolute URL');
  }
  if (!ALLOWED.has(url.protocol)) return refuse('scheme', `scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) return refuse('credentials', 'links with credentials are not opened');
  if (url.protocol !== 'mailto:' && !url.hostname) return refuse('no-host', 'no host');
  return { ok: true, value: url.toString() };
}
