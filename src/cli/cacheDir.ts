/**
 * Where the command line caches derived data (the few-shot pool's embedding
 * vectors): $AVAP_CACHE_DIR, else the user's cache directory
 * ($XDG_CACHE_HOME, else ~/.cache) under `avap-assistant`. Pure over the environment.
 */
import os from 'node:os';
import path from 'node:path';

export function defaultCacheDir(env: NodeJS.ProcessEnv, home: string = os.homedir()): string {
  const xdg = env.XDG_CACHE_HOME?.trim();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME?.trim() || home, '.cache');
  return path.join(base, 'avap-assistant');
}
