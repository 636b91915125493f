/** What every frame of a run shares: the request, the ports, the response being built, the notes. */
import type { PortabilityLog } from './portability';
import type { RuntimePorts } from './ports';
import type { RunRequest } from './types';
import type { Value } from './values';

export interface Shared {
  readonly request: RunRequest;
  readonly ports: RuntimePorts;
  /** Aborted when the run is cancelled or over. */
  readonly signal: AbortSignal;
  /** The response object addResult builds, in insertion order. */
  readonly results: Map<string, Value>;
  readonly notes: PortabilityLog;
  /** Waits for the go_async block `id` (gather). */
  gather(id: string, timeoutMs: number): Promise<void>;
}
