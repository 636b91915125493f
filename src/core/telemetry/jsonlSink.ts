/**
 * The JSONL telemetry file: every event is one line appended with O_APPEND,
 * one write per line, in order. The file is never rewritten or truncated.
 * A torn last line (a crash mid-write) is reported once and the next event
 * starts on a fresh line. A file that cannot be written (full disk, no
 * permission) is reported once per failure streak and never throws into the
 * caller: generation goes on without telemetry; `health()` tells a server.
 */
import { JsonlAppendLog, type AppendResult } from '../../jsonl';
import type { Logger } from '../ports';
import { silentLogger } from '../ports';
import type { AttemptEvent, TelemetrySink } from './events';

export interface JsonlTelemetrySink extends TelemetrySink {
  readonly file: string;
  /** Whether the log can be written now (a probe and the last append). */
  health(): Promise<AppendResult>;
}

export function jsonlTelemetry(file: string, logger: Logger = silentLogger): JsonlTelemetrySink {
  const log = new JsonlAppendLog(file, {
    onTornTail: (f) =>
      logger.warn(
        `telemetry: the last line of ${f} was cut short (a crash mid-write); it is skipped on read and the next event starts on a fresh line`,
      ),
  });
  let failing = false;
  return {
    file,
    record(event: AttemptEvent) {
      void log.append(event).then((written) => {
        if (!written.ok && !failing) {
          failing = true;
          logger.warn(`telemetry: ${written.error.message}; generation continues without it`);
        } else if (written.ok && failing) {
          failing = false;
          logger.info(`telemetry: writing to ${file} again`);
        }
      });
    },
    flush: () => log.flush(),
    health: () => log.health(),
  };
}
