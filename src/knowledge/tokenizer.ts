/**
 * Tokenizer for BM25 over AVAP documentation and code. Identifiers are kept
 * whole (`encodeSHA256` → `encodesha256`) and also split at camelCase and `_`
 * boundaries (`encode`, `sha256`), so "sha256 hash" meets `encodeSHA256`, and
 * `getListLen` meets "list length". Letters followed by digits stay together
 * (`sha256`, `md5`). Lower-cased; a small English/Spanish stop list; a light,
 * deterministic plural folding. URLs count as the single term `url`, so the
 * host and path words of example URLs (`api.example.com/users`) do not drown
 * the words that describe what the code does.
 */

const URL_RE = /\bhttps?:\/\/[^\s"'`),]+/g;

const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  'a',
  'an',
  'the',
  'of',
  'to',
  'in',
  'is',
  'are',
  'was',
  'be',
  'been',
  'and',
  'or',
  'for',
  'on',
  'with',
  'how',
  'do',
  'does',
  'did',
  'i',
  'you',
  'we',
  'it',
  'its',
  'as',
  'by',
  'this',
  'that',
  'these',
  'those',
  'from',
  'at',
  'can',
  'could',
  'should',
  'would',
  'my',
  'me',
  'your',
  'what',
  'which',
  'who',
  'when',
  'where',
  'there',
  'then',
  'than',
  'so',
  'into',
  'about',
  'please',
  'write',
  'show',
  'give',
  'want',
  'need',
  'some',
  'any',
  'also',
  'just',
  'has',
  'have',
  'will',
  'not',
  'no',
  'but',
  'all',
  'one',
  'each',
  'them',
  'they',
  'their',
  'our',
  'us',
  // Spanish
  'el',
  'la',
  'los',
  'las',
  'un',
  'una',
  'unos',
  'unas',
  'de',
  'del',
  'al',
  'que',
  'en',
  'y',
  'o',
  'para',
  'con',
  'por',
  'como',
  'es',
  'se',
  'lo',
  'mi',
  'su',
  'me',
  'cómo',
  'qué',
]);

/**
 * Folds simple plurals so `hashes`/`hash`, `queries`/`query`, `lists`/`list` meet.
 * @internal
 */
export function foldPlural(token: string): string {
  if (token.length <= 3 || !/^[a-z]+$/.test(token)) return token;
  if (token.endsWith('ies') && token.length > 4) return `${token.slice(0, -3)}y`;
  if (/(ss|sh|ch|x)es$/.test(token)) return token.slice(0, -2);
  if (token.endsWith('s') && !/(ss|us|is)$/.test(token)) return token.slice(0, -1);
  return token;
}

/**
 * Splits an identifier at camelCase, acronym and `_` boundaries.
 * @internal
 */
export function identifierParts(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter((p) => p !== '');
}

function normalize(raw: string): string | undefined {
  const lower = raw.toLowerCase();
  if (lower.length < 2 && !/^\d$/.test(lower)) return undefined;
  if (STOP_WORDS.has(lower)) return undefined;
  return foldPlural(lower);
}

/**
 * The terms of a text, in order, with repetitions (BM25 needs frequencies).
 * For a compound identifier the whole form comes first, then its parts.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const words = text.replace(URL_RE, ' url ').match(/[\p{L}\p{N}_]+/gu) ?? [];
  for (const word of words) {
    const whole = normalize(word);
    if (whole !== undefined) out.push(whole);
    const parts = identifierParts(word);
    if (parts.length > 1) {
      for (const part of parts) {
        const term = normalize(part);
        if (term !== undefined && term !== whole) out.push(term);
      }
    }
  }
  return out;
}
