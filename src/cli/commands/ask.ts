/**
 * `ask [--json] [options] "question"` — the full graph: the question is
 * classified (CODE_GENERATION, RETRIEVAL, CONVERSATIONAL, PLATFORM) and routed.
 */
import type { CliCommand } from '../command';
import { PIPELINE_OPTIONS_USAGE, runRequest } from './generate';

const USAGE = `Usage: node dist/cli.js ask [--json] [options] "question"
  Answers a question about AVAP: classified, then routed (code is validated by the parser).
${PIPELINE_OPTIONS_USAGE}`;

export const askCommand: CliCommand = {
  name: 'ask',
  summary: 'answer a question (classified and routed through the pipeline)',
  usage: USAGE,
  run: (args, io) => runRequest(args, io, undefined, 'question'),
};
