/**
 * The JSONL telemetry file: every event is one line appended with O_APPEND,
 * one write per line, in order. The file is never rewritten or truncated.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../ports';
import { silentLogger } from '../ports';
import type { AttemptEvent, TelemetrySink } from './events';

export function jsonlTelemetry(file: string, logger: Logger = silentLogger): TelemetrySink {
  let chain: Promise<void> = mkdir(path.dirname(path.resolve(file)), { recursive: true }).then(() => undefined, () => undefined);
  let warned = false;
  return {
    record(event: AttemptEvent) {
      const line = `${JSON.stringify(event)}\n`;
      chain = chain.then(() => appendFile(file, line, { encoding: 'utf8', flag: 'a' })).catch((err: Error) => {
        if (!warned) {
          warned = true;
          logger.warn(`[ptvl] telemetry: cannot append to ${file} (${err.message}); generation continues without it`);
        }
      });
    },
    flush: () => chain,
  };
}
