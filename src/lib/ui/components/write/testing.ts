/**
 * Test support for the Write page's state (and the inspector's tests that need runs): a scripted model
 * provider and the ports wired to a real test engine. Not used by the app.
 */
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from '../../../domain/llm/settings';
import { createHeuristicProvider } from '../../../domain/llm/heuristic';
import type { ModelProvider } from '../../../domain/llm/types';
import type { EngineCaller } from '../../../engine/client/caller';
import { memoryDrafts, type WriteDeps } from './write-deps';

/** The scripted model the generation tests use (engine/client/testing.ts). */
export { scriptedProvider } from '../../../engine/client/testing';

export function testWriteDeps(opts: { engine: EngineCaller; now: () => number; provider?: ModelProvider; settings?: Partial<ModelSettings> }) {
  const drafts = memoryDrafts(opts.now);
  const settings: ModelSettings = { ...DEFAULT_MODEL_SETTINGS, ...opts.settings };
  const deps: WriteDeps = {
    engine: opts.engine,
    drafts,
    settings: async () => settings,
    provider: () => opts.provider ?? createHeuristicProvider(),
    locale: () => 'en',
    now: opts.now,
    saveDelayMs: 5,
  };
  return { deps, drafts };
}
