/** Shared AVAP question/context/answers for the quality tests. */
import type { ContextPassage, QualityInput } from '../../../src/quality';

const QUESTION = 'How do I hash a password parameter with SHA-256 in AVAP?';

const CONTEXT: ContextPassage[] = [
  {
    id: 'command-encodeSHA256::signature',
    title: 'encodeSHA256',
    text: '## Signature\n\nencodeSHA256(SourceVariable, TargetVariable)\n\nComputes the SHA-256 hash of a value and stores it as 64 hex characters.\n\n```avap\naddParam(password, pwd)\nencodeSHA256(pwd, pwdHash)\naddResult(pwdHash)\n```',
  },
  {
    id: 'command-addParam::overview',
    title: 'addParam',
    text: 'addParam(paramName, targetVariable) reads a request parameter into a variable.',
  },
];

export const GOOD_ANSWER = [
  'Read the parameter with `addParam`, hash it with `encodeSHA256(SourceVariable, TargetVariable)` and return the digest:',
  '',
  '```avap',
  'addParam(password, pwd)',
  'encodeSHA256(pwd, pwdHash)',
  'addResult(pwdHash)',
  '```',
].join('\n');

export const SHALLOW_ANSWER = 'You can hash a password parameter with SHA-256 in AVAP by hashing it.';

export function input(answer: string, context: ContextPassage[] = CONTEXT): QualityInput {
  return { question: QUESTION, answer, context, queryType: 'RETRIEVAL' };
}
