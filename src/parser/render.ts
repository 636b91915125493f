import type { TraceEntry } from './types';

export interface RenderOptions {
  /** Include warnings (prefixed "warning:"). Default true. */
  includeWarnings?: boolean;
  /** Appends a line saying the list was cut. */
  truncated?: boolean;
}

/** One entry in the design's form: `Line 3: unknown command 'getSHA256' — expected known identifier`. */
export function renderEntry(entry: TraceEntry): string {
  const prefix = entry.severity === 'warning' ? 'warning: ' : '';
  return `Line ${entry.line}: ${prefix}${entry.message}`;
}

/** The text rendering of a trace: one line per entry. */
export function renderTrace(trace: readonly TraceEntry[], options: RenderOptions = {}): string {
  const includeWarnings = options.includeWarnings ?? true;
  const lines = trace.filter((e) => includeWarnings || e.severity === 'error').map(renderEntry);
  if (options.truncated) lines.push('(trace truncated: more findings were not listed)');
  return lines.join('\n');
}
