/** Checks a parser URL without loading the gRPC stack (the editor validates its setting with it). */
import { parseParserUrl } from '../../protocol/parserUrl';

/** Why `url` is not a parser URL the connection factory accepts, or undefined when it is. */
export function parserUrlProblem(url: string): string | undefined {
  const parsed = parseParserUrl(url);
  return parsed.ok ? undefined : parsed.error.message;
}
