import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import type { ClearLog, ClearLogEntry } from './clear-log';
import { deleteRuns, forgetQueuedRuns } from './runs';

/** What `memory.clearAll` removed, by kind, and its entry in the clear log. */
export interface ClearAllReport {
  counts: Record<string, number>;
  conversationsDeleted: boolean;
  logEntry: ClearLogEntry;
}

/** What goes, in this order (children first); each is counted under its name. */
const MEMORY: readonly (readonly [string, string])[] = [
  ['runs', 'context_runs'],
  ['memories', 'memories'],
  ['profileVersions', 'user_profile'],
  ['summaries', 'summaries'],
  ['episodes', 'episodes'],
  ['rules', 'semantic_rules'],
  ['ruleHistory', 'rule_history'],
  ['conflicts', 'rule_conflicts'],
  ['feedbackEvents', 'feedback_events'],
  ['learningRows', 'run_learning'],
  // The story graph: what the memory learned of each story (issue 19).
  ['graphFacts', 'kg_facts'],
  ['graphEntities', 'kg_entities'],
];

/**
 * 003 memory:clear:all, issue 19 "clearing that means it": a fresh user. Every memory of every kind —
 * long-term memories (and their history and vectors), the profile, conversation summaries, episodes,
 * learned and added rules with their history, conflicts and feedback, every run with its trace, the story
 * graph (kg_*) — and
 * the working memory held in this worker. The conversations stay unless `includeConversations`; the
 * documents, projects, their setting files and the settings always stay (they are the user's writing
 * and choices, not memory; "Erase everything" in Settings removes those). Only with `confirm: true`,
 * otherwise MEMORY_CLEAR_CONFIRM_REQUIRED and nothing changes; recorded in the clear log, in the same
 * transaction (the engine runs a write call in one).
 */
export function clearAllMemory(
  deps: { env: Pick<EngineEnv, 'driver' | 'log'>; log: ClearLog; forgetWorkingMemory: () => void },
  input: { confirm: boolean; includeConversations: boolean },
): ClearAllReport {
  if (input.confirm !== true) {
    throw new EngineError('MEMORY_CLEAR_CONFIRM_REQUIRED', 'Clearing all memory needs `confirm: true`; nothing was deleted.', { field: 'confirm' });
  }
  const { driver } = deps.env;
  const counts: Record<string, number> = {};
  for (const [name, table] of MEMORY) {
    counts[name] = table === 'context_runs' ? deleteRuns(driver, '1 = 1', []) : driver.run(`DELETE FROM ${table}`).changes;
  }
  forgetQueuedRuns(driver);
  // The 000 session summaries live on the conversation rows.
  driver.run("UPDATE sessions SET snippet = '', summarized_at = NULL WHERE snippet <> '' OR summarized_at IS NOT NULL");
  if (input.includeConversations) counts.conversations = driver.run('DELETE FROM sessions').changes;
  deps.forgetWorkingMemory();
  const logEntry = deps.log.record({ kind: 'all', counts });
  deps.env.log.info('memory.all-cleared', counts);
  return { counts, conversationsDeleted: input.includeConversations, logEntry };
}
