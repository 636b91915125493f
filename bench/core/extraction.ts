/**
 * Finding the code an answer shows: Markdown's code blocks, the
 * programs written without a fence, the classifier of unlabelled blocks —
 * against validating that code with the parser library in-process (the
 * cheapest verdict there is; the service adds a gRPC round trip on top).
 * Measured over the shipped knowledge documents taken as documentation
 * answers (real Markdown with code, lists and prose), and as code answers.
 */
import { codeAnswerBlocks, shownCodeBlocks } from '../../src/core/code/extract';
import { knowledgeDirectory, loadDocs } from '../../src/knowledge';
import { validateAvap } from '../../src/parser';
import { median, sample, type BenchResult } from '../types';

const fmt = (ms: number) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);

export async function benchExtraction(): Promise<BenchResult> {
  const dir = knowledgeDirectory();
  if (!dir.ok) throw new Error(dir.error.message);
  const docs = loadDocs(dir.value);
  if (!docs.ok) throw new Error(docs.error.message);
  const answers = docs.value.map((d) => d.body);
  const codes = answers.map((a) => shownCodeBlocks(a).map((b) => b.code));
  const bytes = answers.reduce((n, a) => n + a.length, 0);
  const extract = median(
    await sample(() => {
      for (const answer of answers) shownCodeBlocks(answer);
    }, 30),
  );
  const asCode = median(
    await sample(() => {
      for (const answer of answers) codeAnswerBlocks(answer);
    }, 30),
  );
  const validate = median(
    await sample(() => {
      for (const blocks of codes) for (const code of blocks) validateAvap(code);
    }, 30),
  );
  const ratio = extract / validate;
  return {
    name: 'finding the shown code vs validating it in-process (knowledge documents as answers)',
    ratio,
    unit: '× the in-process validation time',
    goal: { text: '≤ 1 (finding the code costs no more than one in-process validation of it)', met: ratio <= 1 },
    detail: `${answers.length} answers, ${(bytes / 1024).toFixed(0)} KB, ${codes.flat().length} blocks: the code they show found in ${fmt(extract)} (as code answers ${fmt(asCode)}), validateAvap of every block ${fmt(validate)}; median of 30`,
  };
}
