/**
 * The reasoning preamble some models emit before their answer. Pure.
 *
 * Qwen-style models open the answer with `<think>…</think>`; when the chat
 * template already holds the opening tag, the answer starts inside the
 * reasoning and only `</think>` shows where it ends. Only that preamble is
 * removed. A `</think>` that is part of the answer — inside a code block, a
 * string literal or an inline code span (`replace(text, "</think>", "", t)`)
 * — ends nothing: the lines before it are kept, and what they show is
 * validated like any other line. So is a `</think>` on a line of code
 * (`// drop </think> tags`).
 */

import { isCodeLine } from './bareCode';

const OPEN = '<think>';
const CLOSE = '</think>';

/** Whether the character at `index` of `line` is inside a `"…"` string or a `` `…` `` code span. */
function quoted(line: string, index: number): boolean {
  let quote = '';
  for (let i = 0; i < index; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === '`') {
      quote = c;
    }
  }
  return quote !== '';
}

const FENCE = /^\s*(`{3,}|~{3,})/;
/** A quote right before or after the tag: it is the content of a literal (`'</think>'`). */
const LITERAL_EDGE = /^["'`]$/;

/**
 * The offset just past the first `</think>` at or after `from` that ends
 * reasoning: outside any code fence (fences are followed from `from` on) and
 * outside quotes on its line. -1 when there is none.
 */
function reasoningEnd(text: string, from: number): number {
  let fence: string | undefined;
  let offset = from;
  for (const line of text.slice(from).split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = undefined;
    } else if (marker) {
      fence = marker;
    } else if (!isCodeLine(line)) {
      // On a line of code (a call, an assignment, a comment) the tag is part of the code.
      let at = line.indexOf(CLOSE);
      while (at >= 0) {
        if (
          !quoted(line, at) &&
          !LITERAL_EDGE.test(line[at - 1] ?? '') &&
          !LITERAL_EDGE.test(line[at + CLOSE.length] ?? '')
        )
          return offset + at + CLOSE.length;
        at = line.indexOf(CLOSE, at + 1);
      }
    }
    offset += line.length + 1;
  }
  return -1;
}

/**
 * Removes the reasoning preamble: leading `<think>…</think>` blocks, or
 * everything up to a `</think>` that ends reasoning the answer started in.
 * Text without a preamble is returned unchanged.
 */
export function stripThinking(text: string): string {
  let out = text;
  for (;;) {
    const lead = out.length - out.trimStart().length;
    if (!out.startsWith(OPEN, lead)) break;
    const end = reasoningEnd(out, lead + OPEN.length);
    // An unterminated block (a stream cut short while thinking) is left as it is: nothing is hidden.
    if (end < 0) return out;
    out = out.slice(end).trimStart();
  }
  if (out !== text) return out;
  // No opening tag: the answer may have started inside the reasoning.
  if (!text.includes(CLOSE)) return text;
  const end = reasoningEnd(text, 0);
  // A `<think>` before it opens a block inside the answer: that is no preamble, and nothing before it is dropped.
  if (end < 0 || text.slice(0, end - CLOSE.length).includes(OPEN)) return text;
  return text.slice(end).trimStart();
}
