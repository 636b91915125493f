/**
 * The server's settings: the `avap` section of the client's configuration
 * (`initializationOptions`, then `workspace/didChangeConfiguration`), the same
 * names as the VS Code settings (`avap.inlayHints.parameterNames`). A value of
 * the wrong type is the default.
 */
import { SETTINGS } from '../surface';

export interface ServerSettings {
  readonly inlayHints: { readonly parameterNames: boolean };
}

const SERVER_DEFAULTS: ServerSettings = {
  inlayHints: { parameterNames: SETTINGS.inlayHints.parameterNames.default },
};

export function readServerSettings(section: unknown): ServerSettings {
  const hints = (section as { inlayHints?: { parameterNames?: unknown } } | null | undefined)?.inlayHints;
  const parameterNames = hints?.parameterNames;
  return {
    inlayHints: {
      parameterNames: typeof parameterNames === 'boolean' ? parameterNames : SERVER_DEFAULTS.inlayHints.parameterNames,
    },
  };
}
