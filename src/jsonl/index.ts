/** The append-only JSONL log shared by telemetry, training signals and the REST feedback log (imports only the Result type). */
export * from './appendLog';
