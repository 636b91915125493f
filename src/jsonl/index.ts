/** The append-only JSONL log shared by telemetry, training signals and the REST feedback log (no project imports). */
export * from './appendLog';
