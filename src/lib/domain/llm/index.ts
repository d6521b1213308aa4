import { createHeuristicProvider } from './heuristic';
import { createOpenAiCompatibleProvider, type ProviderOptions } from './openai-compatible';
import { withPseudonyms } from './pseudonyms';
import type { ModelSettings } from './settings';
import type { ModelProvider } from './types';

/**
 * The provider the settings ask for. Settings change → build a new one (providers hold no state). With name
 * replacement on, every request it sends is masked and every answer unmasked (pseudonyms.ts).
 */
export function createProvider(settings: ModelSettings, opts?: ProviderOptions): ModelProvider {
  if (settings.provider !== 'openai-compatible') return createHeuristicProvider();
  const provider = createOpenAiCompatibleProvider(settings, opts);
  return settings.pseudonymize && settings.personNames.length > 0 ? withPseudonyms(provider, settings.personNames) : provider;
}

export type * from './types';
export type { ProviderOptions } from './openai-compatible';
export { createHeuristicProvider } from './heuristic';
export { createOpenAiCompatibleProvider } from './openai-compatible';
export { collectStream } from './chat-stream';
export { runWithTools, DEFAULT_TOOL_ROUNDS, type Tool, type RunWithToolsOptions } from './tools';
export {
  SEARCH_MEMORIES,
  searchMemoriesSpec,
  searchMemoriesArgsSchema,
  toSearchQuery,
  createSearchMemoriesTool,
  type SearchMemoriesQuery,
} from './search-memories-tool';
export { modelSettingsSchema, DEFAULT_MODEL_SETTINGS, type ModelSettings } from './settings';
export { createPseudonymizer, withPseudonyms, type Pseudonymizer } from './pseudonyms';
