/**
 * `metrics [--json] [--by parser_version|model] LOG` — validation metrics over
 * a telemetry JSONL log, optionally with a before/after comparison. Lines that
 * are not complete events (a torn last line) are skipped and counted.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  COMPARE_BY,
  compareBy,
  computeMetrics,
  isCompareBy,
  parseTelemetry,
  renderComparison,
  renderMetrics,
  REVIEW_THRESHOLD,
} from '../../core';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';

const USAGE = `Usage: node dist/cli.js metrics [--json] [--by parser_version|model] LOG
  Computes, over a telemetry log written by generate/ask/the editor (--telemetry, AVAP_TELEMETRY_FILE):
  first-attempt invalid rate, multi-attempt convergence rate, mean attempts among converged,
  non-convergence rate, rejected-value frequency (absolute and unique generations) with how often the
  generations that rejected each value converged, rejection rate per command (normalized by use),
  final status counts, the first-attempt invalid rate per day (the trend), and needs_review: true when
  the first-attempt invalid rate is above ${REVIEW_THRESHOLD * 100} %.
  --by FIELD   before/after comparison: the metrics per parser_version or per model, in the order they
               were first seen, with the change between consecutive ones (and the other settings that
               changed too, which make the change not attributable to FIELD alone)
  --json       one JSON object with every metric (and "comparison" with --by)
Exit codes: 0 ok, 2 usage error or unreadable log.`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false }, by: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? 'give exactly one telemetry log' : 'no telemetry log given');
  const by = values.by;
  if (by !== undefined && !isCompareBy(by))
    throw new UsageError(`--by must be one of ${COMPARE_BY.join(', ')}, got '${by}'`);
  const file = positionals[0] as string;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    io.stderr(`avap metrics: cannot read ${file}: ${(err as Error).message}\n`);
    return EXIT.usage;
  }
  const log = parseTelemetry(text);
  const metrics = computeMetrics(log.events, log.skipped.length);
  const comparison = by === undefined ? undefined : compareBy(log.events, by);
  if (values.json) io.stdout(`${JSON.stringify(comparison ? { ...metrics, comparison } : metrics)}\n`);
  else io.stdout(renderMetrics(metrics, file) + (comparison ? `\n${renderComparison(comparison)}` : ''));
  if (log.skipped.length && !values.json) {
    io.stderr(
      `avap metrics: skipped ${log.skipped.length} unreadable line(s): ${log.skipped.map((s) => s.line).join(', ')}\n`,
    );
  }
  return EXIT.ok;
}

export const metricsCommand: CliCommand = {
  name: 'metrics',
  summary: 'validation metrics over a telemetry log',
  usage: USAGE,
  run,
};
