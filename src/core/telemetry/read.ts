/**
 * Reading a telemetry log: one event per line; a line that is not a complete
 * JSON event (the torn last line of a crash, or garbage) is skipped and
 * counted, never fatal. Pure over the text.
 */
import type { AttemptEvent } from './events';

export interface ReadLog {
  events: AttemptEvent[];
  skipped: { line: number; reason: string }[];
}

function isEvent(value: unknown): value is AttemptEvent {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.generation_id === 'string' &&
    typeof v.attempt === 'number' &&
    typeof v.query_type === 'string' &&
    typeof v.verdict === 'string' &&
    Array.isArray(v.errors)
  );
}

export function parseTelemetry(text: string): ReadLog {
  const events: AttemptEvent[] = [];
  const skipped: ReadLog['skipped'] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped.push({ line: index + 1, reason: 'not a complete JSON line' });
      return;
    }
    if (!isEvent(value)) {
      skipped.push({ line: index + 1, reason: 'not a telemetry event' });
      return;
    }
    events.push(value);
  });
  return { events, skipped };
}
