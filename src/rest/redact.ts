/**
 * What a remote client may read of an internal failure: the message with
 * filesystem paths and internal peer addresses (URLs, IP literals, host:port)
 * replaced. The unredacted text goes to the server log. Pure.
 */

const RULES: readonly [RegExp, string][] = [
  // URLs of any scheme: http://10.0.0.5:11434/api/chat, grpcs://parser.internal:50051, file:///home/u/x
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>()]+/gi, '<address>'],
  // Bracketed or percent-encoded IPv6, with an optional port: [::1]:50051, %5B::1%5D:50051
  [/(?:\[[^\]\s]*:[^\]\s]*\]|%5B[0-9a-f:.%]*?%5D)(?::\d+)?/gi, '<address>'],
  // Bare IPv6 with at least one '::' (Node's "connect ECONNREFUSED ::1:11434")
  [/(?<![\w:])(?=[0-9a-f:]*[0-9a-f])[0-9a-f]{0,4}(?::[0-9a-f]{0,4})*::[0-9a-f:]*(?![\w:])/gi, '<address>'],
  // IPv4, with an optional port
  [/(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?!\w|\.\d)/g, '<address>'],
  // host:port where the host is a dotted name or localhost
  [/(?<![\w.-])(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{1,5}(?!\w)/gi, '<address>'],
  // Absolute paths of two segments or more, POSIX or Windows: /home/u/signals.jsonl, C:\Users\u\x
  [/(?<![\w.~-])(?:[A-Za-z]:)?(?:[\\/][^\s'"`<>()\\/:;,]+){2,}[\\/]?/g, '<path>'],
];

export function redactInternals(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
