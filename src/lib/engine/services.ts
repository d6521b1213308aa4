import { createConversationService } from './conversation/conversation-service';
import { createRollingSummaries } from './conversation/rolling-summaries';
import { createWorkingMemoryRegistry } from './conversation/working-memory-registry';
import { createContextServices } from './context';
import { memoryPortFrom } from './context/memory-port';
import { createBackupServices } from './backup';
import { createImportServices } from './imports';
import type { EngineEnv } from './env';
import { createMemoryServices } from './memory';
import { createRecallService } from './recall/recall-service';
import { createEmbeddingServices } from './embeddings';
import { createSearchService } from './recall/search-service';
import { createCleanup } from './store/cleanup';
import { createMessageRepo } from './store/message-repo';
import { createSessionRepo } from './store/session-repo';
import { createSettingsRepo } from './store/settings-repo';
import { createSummaryRepo } from './store/summary-repo';
import { createAfterReplyQueue } from './turn/after-reply-queue';
import { createTurnService } from './turn/turn-service';
import { createLifecycleService } from './lifecycle/service';

/**
 * The engine's repositories and services, built once per open database and shared by the handlers.
 * (Handlers stay thin: validate → one service call → result.)
 */
export function createServices(env: EngineEnv) {
  const settings = createSettingsRepo(env);
  const sessions = createSessionRepo(env);
  const messages = createMessageRepo(env);
  const summaries = createSummaryRepo(env);
  const archiveHooks: ((wm: Parameters<Parameters<typeof createWorkingMemoryRegistry>[0]['archive']>[0]) => number)[] = [];
  const workingMemory = createWorkingMemoryRegistry({
    clock: env.clock,
    sessions,
    messages,
    archive: (wm) => archiveHooks.reduce((n, hook) => n + hook(wm), 0),
  });
  const rolling = createRollingSummaries({ env, messages, summaries, settings });
  const conversation = createConversationService({ env, sessions, messages, rolling, workingMemory });
  // Meaning-based recall (issue 18): the configured embedding endpoint and the vectors in memory, one per database.
  const embeddings = createEmbeddingServices(env);
  // Turn recall (002), built once: recall.search and the context build's L4 share it.
  const recall = createRecallService({ env, semantic: embeddings.semantic });
  // Long-term memory (issue 4); it keeps what expiring working memories leave behind.
  const memory = createMemoryServices({ env, settings, sessions, messages, workingMemory, semantic: embeddings.semantic });
  archiveHooks.push(memory.archive);
  // The context engine (issue 5): layers, runs, feedback, rules, projects and their files.
  const context = createContextServices({ env, settings, sessions, messages, summaries, rolling, workingMemory, memory: memoryPortFrom(memory), recall });
  // One call per turn each way (issue 16), on the services above.
  const afterReplyQueue = createAfterReplyQueue(env.driver);
  const turns = createTurnService({ env, sessions, messages, conversation, settings, context: context.context, runs: context.runs, runRepo: context.deps.runs, queue: afterReplyQueue });
  return {
    env,
    settings,
    sessions,
    messages,
    summaries,
    workingMemory,
    /** Long-term memory registers itself here to receive what expiring working memories leave behind. */
    onWorkingMemoryArchive: (hook: (typeof archiveHooks)[number]) => archiveHooks.push(hook),
    conversation,
    rolling,
    memory,
    context,
    recall,
    embeddings,
    turns,
    afterReplyQueue,
    // Memory that forgets on purpose (issue 19): decay, compression, purge, the forgetting ledger.
    lifecycle: createLifecycleService(env),
    search: createSearchService(env),
    cleanup: createCleanup(env),
    // Backup (issue 6): export/import of every table and the project files the context engine keeps.
    backup: createBackupServices({ env, files: context.deps.files }),
    // Imports from other apps and Markdown exports (issue 14).
    imports: createImportServices({ env, messages, extraction: memory.extraction, rolling, files: context.deps.files, tuning: env.imports }),
  };
}

export type Services = ReturnType<typeof createServices>;
