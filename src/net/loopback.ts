/** Whether an address to bind or a host name stays on this machine. */
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1, ::ffff:127.x and `localhost` (brackets and case ignored). Pure. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  if (h.startsWith('::ffff:')) return isLoopbackHost(h.slice('::ffff:'.length));
  return isIP(h) === 4 && h.startsWith('127.');
}
