import { createConversationService } from './conversation/conversation-service';
import { createWorkingMemoryRegistry } from './conversation/working-memory-registry';
import type { EngineEnv } from './env';
import { createRecallService } from './recall/recall-service';
import { createSearchService } from './recall/search-service';
import { createCleanup } from './store/cleanup';
import { createMessageRepo } from './store/message-repo';
import { createSessionRepo } from './store/session-repo';
import { createSettingsRepo } from './store/settings-repo';
import { createSummaryRepo } from './store/summary-repo';

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
  const conversation = createConversationService({ env, sessions, messages, summaries, workingMemory });
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
    recall: createRecallService(env),
    search: createSearchService(env),
    cleanup: createCleanup(env),
  };
}

export type Services = ReturnType<typeof createServices>;
