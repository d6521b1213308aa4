/** The context engine's pure core (seed 004). See docs/design/00-overview.md for the map. */
export * from './types';
export { LAYERS, layerSpec, type LayerSpec } from './layers';
export { assembleContext } from './assemble';
export { sha256Hex } from './hash';
export { contextRulesSchema, parseContextRules, isRequested, ruleFieldFor, type ContextRules, type RuleField } from './rules';
export { trimSurrounding, type TrimSurroundingResult, type TrimBoundary } from './surrounding';
export { normaliseProjectPath } from './project-path';
export {
  needsCompaction,
  planCompaction,
  createCompactSummary,
  renderCompactText,
  compactItem,
  type CompactSummary,
  type CompactInput,
  type HistoryEntry,
} from './compact';
export {
  preferenceItem,
  formatPreferenceLine,
  preferencesHeader,
  preferencesEmpty,
  type PreferenceRule,
} from './preferences';
export { heading, unavailableMarker, degradedMarker, normaliseText } from './serialize';
export { promptLanguage, PROMPT_WORDS, type PromptLanguage, type PromptWords } from './prompt-language';
export { stripScaffolding } from './reply-clean';
export { flagLine, CAPABILITIES } from './capabilities';
export { trimToTokens } from './budget';
export { loadLayer } from './load-layer';
export {
  compareStoryPoints,
  isValidAt,
  overlap,
  stateAt,
  findContradictions,
  type StoryPoint,
  type Validity,
  type Entity,
  type EntityType,
  type Evidence,
  type Fact,
  type Contradiction,
  type KnowledgeGraphReader,
} from './knowledge-graph';
export { budgetsForWindow, replyReserve, type LayerBudgets } from './window-budgets';
