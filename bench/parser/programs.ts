import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const CORPUS = path.join(__dirname, '..', '..', 'test', 'corpus', 'valid');

function corpusFiles(): string[] {
  return readdirSync(CORPUS)
    .filter((f) => f.endsWith('.avap') && !f.includes('functions') && !f.includes('async') && !f.includes('globals'))
    .sort()
    .map((f) => readFileSync(path.join(CORPUS, f), 'utf8'));
}

/** The valid corpus concatenated, repeated until it reaches `bytes`. */
export function largeProgram(bytes: number): string {
  const unit = corpusFiles().join('\n');
  let out = '';
  while (Buffer.byteLength(out) < bytes) out += `${unit}\n`;
  return out;
}

/** A realistic 100-line program: parameters, a loop, a request with error handling, hashing, JSON. */
export function hundredLineProgram(): string {
  const lines: string[] = [
    '// order summary endpoint',
    'addParam("customer", customer)',
    'addParam("limit", limit)',
    'addVar(total, 0)',
    'items = []',
  ];
  let i = 0;
  while (lines.length < 92) {
    lines.push(
      `startLoop(k${i}, 1, 3)`,
      `  price${i} = k${i} * 2.5`,
      `  total = total + price${i}`,
      `  variableToList(price${i}, items)`,
      'endLoop()',
      `if(total, ${10 * (i + 1)}, ">")`,
      `  AddvariableToJSON("tier${i}", "high", summary)`,
      'else()',
      `  AddvariableToJSON("tier${i}", "low", summary)`,
      'end()',
      'try()',
      `  RequestGet("https://api.example.com/orders?page=${i}", , , page${i})`,
      'exception(err)',
      '  addVar(_status, 502)',
      'end()',
    );
    i++;
  }
  lines.length = 96;
  lines.push(
    'encodeSHA256(customer, customer_hash)',
    'getListLen(items, count)',
    'addResult(summary)',
    'addResult(count)',
  );
  return `${lines.join('\n')}\n`;
}

/** The failure corpus: programs with the mistakes models make, most of them with proven fixes. */
export function failurePrograms(): string[] {
  const dir = path.join(__dirname, '..', '..', 'test', 'corpus', 'failures');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((f) => readFileSync(path.join(dir, f), 'utf8'));
}

/**
 * A plain valid program of `bytes` characters, give or take a line: whole
 * programs of the valid corpus, one after another, then short assignments to
 * make up the rest (a program cut inside a block would not be valid).
 */
export function plainProgram(bytes: number): string {
  const files = corpusFiles();
  let out = '';
  for (let i = 0; ; i++) {
    const next = `${files[i % files.length] ?? ''}\n`;
    if (out.length + next.length > bytes) break;
    out += next;
  }
  for (let i = 0; out.length < bytes; i++) out += `pad_${i} = ${i}\n`;
  return out;
}
