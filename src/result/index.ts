/**
 * The one result type that crosses module boundaries: errors are
 * data, never exceptions, and logic decides on an error's `kind`, never on its
 * `message` (the message is for people: logs, the Output channel, HTTP bodies).
 *
 *   function open(url: string): Result<Channel, Failure<'bad-url' | 'refused'>> {
 *     if (!valid(url)) return err(failure('bad-url', `not a parser URL: ${url}`));
 *     return ok(channel);
 *   }
 *   const opened = open(url);
 *   if (!opened.ok && opened.error.kind === 'bad-url') …   // switch on the kind
 *
 * A module whose errors already have their own typed shape (the LLM port's
 * `LlmError`, the knowledge loaders' `KnowledgeError`) uses it as `E`.
 */
export interface Ok<T> {
  ok: true;
  value: T;
}

export interface Err<E> {
  ok: false;
  error: E;
}

export type Result<T, E = Failure> = Ok<T> | Err<E>;

/** A typed error: `kind` drives logic, `message` is for people. */
export interface Failure<K extends string = string> {
  kind: K;
  message: string;
}

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function err<E>(error: E): Err<E> {
  return { ok: false, error };
}

/** `err({kind, message})`, the common case. */
export function fail<K extends string>(kind: K, message: string): Err<Failure<K>> {
  return { ok: false, error: { kind, message } };
}
