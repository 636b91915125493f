/**
 * The `contributes.languageModelTools` entries of package.json, generated from
 * the tool definitions so the manifest and the runtime contracts cannot
 * drift (a unit test compares them). `npm run contributes` (scripts/contributes.ts) writes the key.
 */
import { jsonSchemaOf } from '../inputContract';
import { TOOL_DEFINITIONS, type ToolDefinition } from './definitions';

export interface LanguageModelToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  userDescription: string;
  modelDescription: string;
  tags: string[];
  inputSchema: Record<string, unknown>;
}

function toolContribution(definition: ToolDefinition<unknown>): LanguageModelToolContribution {
  return {
    name: definition.name,
    displayName: definition.displayName,
    toolReferenceName: definition.toolReferenceName,
    canBeReferencedInPrompt: true,
    userDescription: definition.userDescription,
    modelDescription: definition.modelDescription,
    tags: [...definition.tags],
    inputSchema: jsonSchemaOf(definition.input),
  };
}

/** @internal */
export function languageModelToolsContribution(): LanguageModelToolContribution[] {
  return TOOL_DEFINITIONS.map((d) => toolContribution(d as ToolDefinition<unknown>));
}

/**
 * `manifest` with `contributes.languageModelTools` replaced and nothing else
 * touched (key order kept; a missing `contributes` is created).
 * @internal
 */
export function withLanguageModelTools(manifest: Record<string, unknown>): Record<string, unknown> {
  const contributes = (
    manifest.contributes && typeof manifest.contributes === 'object' ? manifest.contributes : {}
  ) as Record<string, unknown>;
  return { ...manifest, contributes: { ...contributes, languageModelTools: languageModelToolsContribution() } };
}
