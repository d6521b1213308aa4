import { createHeuristicProvider } from './heuristic';
import { createOpenAiCompatibleProvider, type ProviderOptions } from './openai-compatible';
import type { ModelSettings } from './settings';
import type { ModelProvider } from './types';

/** The provider the settings ask for. Settings change → build a new one (providers hold no state). */
export function createProvider(settings: ModelSettings, opts?: ProviderOptions): ModelProvider {
  return settings.provider === 'openai-compatible' ? createOpenAiCompatibleProvider(settings, opts) : createHeuristicProvider();
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
