/**
 * `metrics [--json] LOG` — validation metrics over a telemetry JSONL log.
 * Lines that are not complete events (a torn last line) are skipped and counted.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { computeMetrics, parseTelemetry, renderMetrics } from '../../core';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';

const USAGE = `Usage: node dist/cli.js metrics [--json] LOG
  Computes, over a telemetry log written by generate/ask/the editor (--telemetry, AVAP_TELEMETRY_FILE):
  first-attempt invalid rate, multi-attempt convergence rate, mean attempts among converged,
  non-convergence rate, rejected-value frequency (absolute and unique generations),
  rejection rate per command (normalized by use), and final status counts.
  --json   one JSON object with every metric
Exit codes: 0 ok, 2 usage error or unreadable log.`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give exactly one telemetry log' : 'no telemetry log given');
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
  if (values.json) io.stdout(`${JSON.stringify(metrics)}\n`);
  else io.stdout(renderMetrics(metrics, file));
  if (log.skipped.length && !values.json) {
    io.stderr(`avap metrics: skipped ${log.skipped.length} unreadable line(s): ${log.skipped.map((s) => s.line).join(', ')}\n`);
  }
  return EXIT.ok;
}

export const metricsCommand: CliCommand = {
  name: 'metrics',
  summary: 'validation metrics over a telemetry log',
  usage: USAGE,
  run,
};
