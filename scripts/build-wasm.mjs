// Compiles wasm/plainTokens.ts and writes src/parser/analysis/plainTokensWasm.ts (scripts/lib/plainTokensWasm.mjs).
import { writeFileSync } from 'node:fs';
import { compile, MODULE, moduleText } from './lib/plainTokensWasm.mjs';

const bytes = await compile();
writeFileSync(MODULE, moduleText(bytes));
process.stdout.write(`${MODULE}: ${bytes.length} bytes of WebAssembly\n`);
