import * as context from './tables-context';
import * as conversation from './tables-conversation';
import * as memory from './tables-memory';
import * as learning from './tables-learning';
import type { TableSpec } from './table-spec';

/**
 * THE list of exportable tables, parents before children (the order rows are written on import and
 * appear in a file). A table added by a migration must be added here or to the engine's explicit
 * exclusions (engine/backup/registry.ts); a test fails otherwise.
 */
export const TABLES = [
  conversation.projects,
  conversation.sessions,
  conversation.messages,
  conversation.summaries,
  conversation.symbolIndex,
  memory.memories,
  memory.memoryHistory,
  memory.userProfile,
  memory.settings,
  context.documents,
  context.contextRuns,
  context.feedbackEvents,
  context.semanticRules,
  context.generationTraces,
  context.kgEntities,
  context.kgFacts,
  // issue 17
  learning.episodes,
  learning.ruleHistory,
  learning.ruleConflicts,
  learning.runLearning,
  // issue 19
  learning.forgettingLedger,
] as const;

export type AnyTable = (typeof TABLES)[number];
export type TableName = AnyTable['name'];

export const TABLE_NAMES = TABLES.map((t) => t.name) as TableName[];

const byName = new Map<string, TableSpec>(TABLES.map((t) => [t.name, t as unknown as TableSpec]));

export function tableSpec(name: TableName): TableSpec {
  return byName.get(name) as TableSpec;
}

export function isTableName(value: string): value is TableName {
  return byName.has(value);
}
