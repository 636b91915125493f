/**
 * Runs and tests as a developer sees them, outside any editor: the request file a program runs with
 * (`NAME.avap.request.json`), the cases of its test file (`NAME.avap.test.json`) read with their places, a case
 * judged with a diff and the line that produced the wrong value, a run turned into a case, values shortened for
 * the end of a line, a step trace turned into per-line values, and what the result view shows. The editor's
 * adapters (src/editor/run) are thin over these; the sandbox that runs them is src/runtime/host.
 *
 * `outline` (names and places of files and cases, nothing that runs) is a light entry for the editor's start-up.
 */
export {
  /** @internal */ TEST_SUFFIX,
  /** @internal */ REQUEST_SUFFIX,
  /** @internal */ testFileOf,
  /** @internal */ requestFileOf,
  /** @internal */ programOf,
  /** @internal */ outlineTestFile,
} from './outline';
export { /** @internal */ readJsonTree, /** @internal */ positionAt } from './jsonTree';
export { loadTestCases } from './cases';
export type { ReadBeside } from './cases';
export {
  defaultSetup,
  loadRunSetup,
  /** @internal */ requestParameters,
  requestTemplate,
  describeRequest,
  /** @internal */ REQUEST_FILE_KEYS,
} from './requestFile';
export type { RunSetup } from './requestFile';
export { /** @internal */ shortValue, /** @internal */ fullValue } from './values';
export { lineValues } from './lineValues';
export type { LineValue } from './lineValues';
export { judgeCase, /** @internal */ projectOnto, /** @internal */ firstMismatch } from './judge';
export { caseName, caseFromRun, appendCase } from './caseFromRun';
export { runViewModel, /** @internal */ statusText, errorText, /** @internal */ VIEW_STEPS } from './resultModel';
export type { RunViewModel } from './resultModel';
export { poolLimits, allowList } from './settings';
export type { RunSettings } from './settings';
