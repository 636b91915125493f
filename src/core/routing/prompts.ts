/**
 * The prompts of the graph, written for this project. Each system prompt
 * starts with a fixed header line (`PROMPT_HEADERS`) so logs, tests and the
 * scripted Ollama can tell the nodes apart; `promptTask()` reads it back.
 * Pure: every function returns messages, nothing is sent from here.
 */
import type { ConversationTurn, QueryType } from '../types';
import type { ChatMessage } from '../llm/port';
import { divergenceNote } from '../../knowledge';

export type PromptTask =
  'classify' | 'reformulate' | 'relevance' | 'generate' | 'generate_code' | 'conversational' | 'platform';

/** @internal */
export const PROMPT_HEADERS: Record<PromptTask, string> = {
  classify: 'AVAP Assistant — query classifier.',
  reformulate: 'AVAP Assistant — search query writer.',
  relevance: 'AVAP Assistant — context relevance judge.',
  generate: 'AVAP Assistant — documentation answerer.',
  generate_code: 'AVAP Assistant — AVAP code writer.',
  conversational: 'AVAP Assistant — conversation.',
  platform: 'AVAP Assistant — platform advisor.',
};

/**
 * Which node a system prompt belongs to (undefined if it is none of ours).
 * @internal
 */
export function promptTask(systemPrompt: string): PromptTask | undefined {
  const first = systemPrompt.split('\n', 1)[0] ?? '';
  return (Object.keys(PROMPT_HEADERS) as PromptTask[]).find((task) => PROMPT_HEADERS[task] === first);
}

export type { ConversationTurn };

/** The short AVAP rulebook every code-writing prompt carries. */
const AVAP_RULES = `AVAP rules:
- A program is a sequence of command calls, one per line: name(arg1, arg2, …). There are no semicolons.
- Commands store their result in the LAST argument (the target variable): addParam(name, n) reads request parameter "name" into n; encodeSHA256(n, h) stores the hash of n in h.
- Return values to the caller with addResult(variable). Set variables with addVar(target, value) or target = expression.
- Conditionals: if(a, b, "==") … else() … end(). Comparators: = == != < > <= >= in.
- Loops: startLoop(i, from, to) … endLoop(), inclusive bounds.
- Errors: try() … exception(err) … end().
- HTTP: RequestGet(url, query, headers, result) and RequestPost(url, query, headers, body, result).
- Functions: function name(a, b) { … return(x) }.
- Comments are // or /* */. Never use #.
- Never write Python, JavaScript or Go: no def, for, while, print, import, package, func, let, var, const, console.log, =>, and no braces after if.
- Only use commands that exist. Names like getSHA256, returnResult, readParam, httpGet or except do not exist.`;

export const CLASSIFY_TYPES: readonly QueryType[] = ['CODE_GENERATION', 'RETRIEVAL', 'CONVERSATIONAL', 'PLATFORM'];

export function classifyMessages(query: string, history: readonly ConversationTurn[] = []): ChatMessage[] {
  const recent = history
    .filter((t) => t.role === 'user')
    .slice(-5)
    .map((t) => `- ${t.queryType ?? 'UNKNOWN'}: ${t.content.slice(0, 120).replace(/\s+/g, ' ')}`);
  const system = `${PROMPT_HEADERS.classify}
Decide what kind of request the user's message is. Answer with a JSON object {"type": TYPE} and nothing else.
TYPE is one of:
- CODE_GENERATION: the user wants AVAP code written, completed or fixed.
- RETRIEVAL: the user asks how AVAP works, what a command does or means, or how to do something (an explanation).
- CONVERSATIONAL: greetings, thanks, small talk, or a follow-up that the conversation so far already answers.
- PLATFORM: questions about the user's account, project, plan, usage, quotas or billing on the platform.
Platform questions win over everything else. Earlier turns are listed only to resolve follow-ups; classify the new message on its own merits.`;
  const user = `${recent.length ? `Earlier requests (type: text):\n${recent.join('\n')}\n\n` : ''}New message:\n${query}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The second chance for a malformed classification: the validation error goes back verbatim. */
export function classifyRepairMessages(
  original: ChatMessage[],
  badAnswer: string,
  validationError: string,
): ChatMessage[] {
  return [
    ...original,
    { role: 'assistant', content: badAnswer },
    {
      role: 'user',
      content: `That answer is not valid. Validation error:\n${validationError}\nAnswer again with only a JSON object of the form {"type": "CODE_GENERATION" | "RETRIEVAL" | "CONVERSATIONAL" | "PLATFORM"}.`,
    },
  ];
}

export function reformulateMessages(query: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${PROMPT_HEADERS.reformulate}
Rewrite the user's request as a short search query for the AVAP documentation: the command names, constructs and keywords that matter, without filler words. Answer with the query only, on one line.`,
    },
    { role: 'user', content: query },
  ];
}

/**
 * The design's hint for the second retrieval.
 * @internal
 */
export function contextInsufficientHint(query: string): string {
  return `[CONTEXT_INSUFFICIENT] The previous retrieval did not return relevant context for: "${query}" Reformulate this query using broader terms or alternative phrasing.`;
}

export function reformulateWithHintMessages(query: string): ChatMessage[] {
  return reformulateMessages(contextInsufficientHint(query));
}

export interface ContextChunk {
  title: string;
  text: string;
}

function renderContext(chunks: readonly ContextChunk[]): string {
  if (!chunks.length) return '(no documentation was found)';
  return chunks.map((c, i) => `[${i + 1}] ${c.title}\n${c.text}`).join('\n\n');
}

export function relevanceMessages(query: string, chunks: readonly ContextChunk[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${PROMPT_HEADERS.relevance}
Decide whether the documentation excerpts contain what is needed to answer the question. Answer YES or NO, one word.`,
    },
    { role: 'user', content: `Question:\n${query}\n\nExcerpts:\n${renderContext(chunks)}` },
  ];
}

function historyMessages(history: readonly ConversationTurn[]): ChatMessage[] {
  return history.slice(-6).map((t) => ({ role: t.role, content: t.content }));
}

export function generateMessages(
  query: string,
  chunks: readonly ContextChunk[],
  history: readonly ConversationTurn[] = [],
): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${PROMPT_HEADERS.generate}
Answer the question about the AVAP language from the documentation excerpts. Cite excerpts as [n]. If the excerpts do not cover it, say so briefly rather than guessing. Any AVAP code you show goes in a \`\`\`avap block and follows these rules.
${AVAP_RULES}

Documentation:
${renderContext(chunks)}`,
    },
    ...historyMessages(history),
    { role: 'user', content: query },
  ];
}

export interface FewShotExample {
  request: string;
  code: string;
  /** The divergences between the specification and AVAP Lite the example depends on (the pool's `divergences`). */
  divergences?: readonly string[];
}

/** One example: the request, the code, and after it what AVAP Lite does instead where the example depends on it. */
function renderExample(e: FewShotExample): string {
  const note = divergenceNote(e.divergences);
  return `Request: ${e.request}\n\`\`\`avap\n${e.code.trimEnd()}\n\`\`\`${note ? `\n${note}` : ''}`;
}

function renderExamples(examples: readonly FewShotExample[]): string {
  if (!examples.length) return '';
  return `\n\nValidated examples:\n${examples.map(renderExample).join('\n\n')}`;
}

export function generateCodeMessages(
  query: string,
  chunks: readonly ContextChunk[],
  examples: readonly FewShotExample[] = [],
  history: readonly ConversationTurn[] = [],
): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${PROMPT_HEADERS.generate_code}
Write AVAP code for the request. Put the complete program in one \`\`\`avap fenced block, then at most two sentences of explanation.
${AVAP_RULES}

Documentation:
${renderContext(chunks)}${renderExamples(examples)}`,
    },
    ...historyMessages(history),
    { role: 'user', content: query },
  ];
}

/** @internal */
export const CORRECTION_HEAD = 'The previous attempt produced invalid AVAP code. Specific failures:';
/** @internal */
export const CORRECTION_TAIL = 'Correct these errors. Do not repeat the same constructs.';

/**
 * The correction context of the retry, exactly in the design's words, around the trace lines.
 * @internal
 */
export function correctionContext(traceLines: readonly string[]): string {
  return `${CORRECTION_HEAD}\n${traceLines.join('\n')}\n${CORRECTION_TAIL}`;
}

/** What the parser found wrong with the attempt a retry corrects, as the retry hands it to the model. */
interface Correction {
  /** The parser's findings, one per line, in the design's words. */
  readonly traceLines: readonly string[];
  /** How to fix them (the normaliser's repair instructions). */
  readonly repairInstructions: readonly string[];
}

/** The correction context, then the repair instructions as a list when there are any. */
function correctionText(correction: Correction): string {
  const hints = correction.repairInstructions.length
    ? `\n\nHow to fix them:\n${correction.repairInstructions.map((h) => `- ${h}`).join('\n')}`
    : '';
  return `${correctionContext(correction.traceLines)}${hints}`;
}

/** The trace-guided retry of a code request: the request with its grounding, and the code that failed. */
interface CodeRetry extends Correction {
  readonly query: string;
  /** The documentation the first prompt was grounded on. */
  readonly chunks: readonly ContextChunk[];
  /** The validated examples the first prompt carried. */
  readonly examples?: readonly FewShotExample[];
  /** The code the retry corrects. */
  readonly previousCode: string;
}

export function generateCodeRetryMessages(retry: CodeRetry): ChatMessage[] {
  const base = generateCodeMessages(retry.query, retry.chunks, retry.examples ?? []);
  return [
    ...base,
    { role: 'assistant', content: `\`\`\`avap\n${retry.previousCode.trimEnd()}\n\`\`\`` },
    {
      role: 'user',
      content: `${correctionText(retry)}\n\nWrite the whole corrected program in one \`\`\`avap block.`,
    },
  ];
}

/** The trace-guided retry of an answer in prose: the answer as the model gave it, and the code of it that failed. */
interface AnswerRetry extends Correction {
  readonly previousAnswer: string;
  /** The AVAP code of that answer, as the parser checked it. */
  readonly checkedCode: string;
}

/**
 * The trace-guided retry of an answer that is prose first (documentation,
 * conversation, platform) and showed invalid AVAP code: the messages it was
 * generated from, the previous answer, then its code as checked with the
 * parser's failures in the design's words.
 */
export function answerRetryMessages(base: readonly ChatMessage[], retry: AnswerRetry): ChatMessage[] {
  return [
    ...base,
    { role: 'assistant', content: retry.previousAnswer },
    {
      role: 'user',
      content:
        `The AVAP code of your answer, as the parser checked it:\n\`\`\`avap\n${retry.checkedCode.trimEnd()}\n\`\`\`\n${correctionText(retry)}\n\n` +
        'Rewrite the whole answer with every AVAP code block corrected, each in an ```avap block.',
    },
  ];
}

/** The quality judge's hinted retry starts with this line (tests and recorders match on it). */
export const QUALITY_RETRY_HEAD = 'A reviewer found your previous answer too weak.';

/**
 * The judge's hinted retry: the messages the answer was generated from
 * (`base`), the previous answer, then the reviewer's hint.
 */
export function hintedRetryMessages(base: readonly ChatMessage[], previous: string, hint: string): ChatMessage[] {
  return [
    ...base,
    { role: 'assistant', content: previous },
    {
      role: 'user',
      content: `${QUALITY_RETRY_HEAD} ${hint}\nRewrite the whole answer to the question, using only the documentation provided.`,
    },
  ];
}

export function conversationalMessages(query: string, history: readonly ConversationTurn[] = []): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${PROMPT_HEADERS.conversational}
You are the assistant of an AVAP development environment. Reply briefly and kindly. If the user asks for AVAP code or documentation, suggest asking for it directly.`,
    },
    ...historyMessages(history),
    { role: 'user', content: query },
  ];
}

export function platformMessages(query: string, history: readonly ConversationTurn[] = []): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${PROMPT_HEADERS.platform}
Answer questions about the user's AVAP platform project, usage and plan. Give a short, practical recommendation. If the message lacks the figures you would need, say which ones.`,
    },
    ...historyMessages(history),
    { role: 'user', content: query },
  ];
}
