/**
 * The `Host` allow-list that stops DNS rebinding: a web page the developer
 * visits can point its own host name at 127.0.0.1 and then talk to a server
 * on loopback as if it were same-origin; the browser still sends the page's
 * host name in `Host`, so a server that answers only to the names it is known
 * by refuses it (421 Misdirected Request).
 *
 * Rules are `name` (any port, or none) or `name:port` (that port only); IPv6
 * literals in brackets. Names compare case-insensitively. Pure.
 */
import { isIP } from 'node:net';
import { err, ok, type Failure, type Result } from '../result';

export interface HostRule {
  /** Lower case; IPv6 literals in brackets. */
  name: string;
  port?: number;
}

/** The names a loopback server always answers to, on any port. */
export const LOOPBACK_HOST_RULES: readonly HostRule[] = [
  { name: 'localhost' },
  { name: '127.0.0.1' },
  { name: '[::1]' },
];

const NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?$/;

function port(raw: string | undefined): number | undefined | null {
  if (raw === undefined) return undefined;
  if (!/^\d{1,5}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= 1 && value <= 65535 ? value : null;
}

/** Splits `name[:port]` / `[v6][:port]` (a Host header or a rule); undefined when malformed. */
export function splitHost(raw: string): HostRule | undefined {
  const text = raw.trim().toLowerCase();
  let name: string;
  let rest: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    name = text.slice(0, close + 1);
    if (isIP(name.slice(1, -1)) !== 6) return undefined;
    const tail = text.slice(close + 1);
    if (tail !== '' && !tail.startsWith(':')) return undefined;
    rest = tail === '' ? undefined : tail.slice(1);
  } else if (isIP(text) === 6) {
    // A bare IPv6 literal is only accepted as a rule (a Host header must bracket it).
    return { name: `[${text}]` };
  } else {
    const colon = text.lastIndexOf(':');
    name = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? undefined : text.slice(colon + 1);
    if (!NAME.test(name)) return undefined;
  }
  const p = port(rest);
  if (p === null) return undefined;
  return p === undefined ? { name } : { name, port: p };
}

/** A value of `--allowed-host` that is not a host name, an IP address or NAME:PORT; `value` is that value. */
export interface BadHostRule extends Failure<'bad-host'> {
  value: string;
}

/** Parses `--allowed-host` values; throws nothing, returns the bad value instead. */
export function parseHostRules(values: readonly string[]): Result<HostRule[], BadHostRule> {
  const rules: HostRule[] = [];
  for (const value of values) {
    const rule = splitHost(value);
    if (!rule || value.includes('/') || value.includes('@')) {
      return err({ kind: 'bad-host', value, message: `'${value}' is not a host name, an IP address or NAME:PORT` });
    }
    rules.push(rule);
  }
  return ok(rules);
}

/** Whether a request's `Host` header names this server. A missing or malformed header is refused. */
export function hostAllowed(header: string | undefined, rules: readonly HostRule[]): boolean {
  if (!header) return false;
  if (isIP(header.trim()) === 6) return false;
  const host = splitHost(header);
  if (!host) return false;
  return rules.some((rule) => rule.name === host.name && (rule.port === undefined || rule.port === host.port));
}

/** `name` or `name:port`, as a person would write it. */
export function formatHostRule(rule: HostRule): string {
  return rule.port === undefined ? rule.name : `${rule.name}:${rule.port}`;
}
