import type { Logger } from '../../domain/log';
import type { SemanticService } from '../embeddings/semantic-service';
import { retrievalConfig } from '../../domain/recall/config';
import type { EngineEnv } from '../env';
import type { WorkingMemoryRegistry } from '../conversation/working-memory-registry';
import { createMemoryQuery } from '../store/memory-query';
import { createMemoryRepo } from '../store/memory-repo';
import type { MessageRepo } from '../store/message-repo';
import { createProfileRepo } from '../store/profile-repo';
import type { SessionRepo } from '../store/session-repo';
import type { SettingsRepo } from '../store/settings-repo';
import { createWorkingMemoryArchiver } from './archive';
import { createDecisionWriter } from './decision-writer';
import { createEviction } from './eviction';
import { createExtractionService } from './extraction-service';
import { createMemoryManager } from './manager';
import { createProfileSync } from './profile-sync';
import { createRetrievalService } from './retrieval-service';
import { createMemorySearch } from './search-service';
import { createMemoryUndo } from './undo';

/** Turns searched for a chat's first user message (it may open with the assistant's greeting). */
const OPENING_TURNS = 4;

/**
 * Long-term memory (issue 4), wired once per open database:
 *
 *   handlers/memory.ts ─▶ manager (CRUD, clear) · retrieval · search · extraction · undo · eviction · profile
 *                                      │ all over store/memory-repo (+ FTS, history), memory-query, profile-repo
 *   working memory expiry ─▶ archive ─▶ decision-writer (reconcile + write)
 */
export function createMemoryServices(deps: {
  env: EngineEnv;
  settings: SettingsRepo;
  sessions: SessionRepo;
  messages: MessageRepo;
  workingMemory: Pick<WorkingMemoryRegistry, 'peek'>;
  /** Meaning-based recall (issue 18); absent: lexical only. */
  semantic?: Pick<SemanticService, 'lane'>;
}) {
  const { env, settings } = deps;
  const log: Logger = env.log;
  const memories = createMemoryRepo(env);
  const query = createMemoryQuery(env);
  const profile = createProfileRepo(env);
  const eviction = createEviction({ memories, settings, log });
  const writer = createDecisionWriter({ memories, query, log });
  const profileSync = createProfileSync({ profile });
  return {
    memories,
    profile,
    eviction,
    manager: createMemoryManager({
      driver: env.driver,
      ids: env.ids,
      memories,
      sessions: deps.sessions,
      messages: deps.messages,
      profile,
      settings,
      eviction,
      query,
      profileSync,
    }),
    retrieval: createRetrievalService({
      query,
      settings,
      workingMemory: deps.workingMemory,
      recentUserTexts: (sessionId, limit) =>
        deps.messages
          .list(sessionId, { limit: limit * 2 + 2 })
          .filter((m) => m.role === 'user')
          .reverse()
          .slice(0, limit)
          .map((m) => m.content),
      // A chat may open with the assistant's greeting: the first user message among its first turns.
      openingUserText: (sessionId) => deps.messages.turns(sessionId, 1, OPENING_TURNS).find((m) => m.role === 'user')?.content ?? null,
      clock: env.clock,
      log,
      config: () => retrievalConfig(env.retrieval),
      ...(deps.semantic ? { semantic: deps.semantic } : {}),
    }),
    search: createMemorySearch({ query, log }),
    extraction: createExtractionService({ messages: deps.messages, profile, writer, eviction, settings, log }),
    undo: createMemoryUndo({ memories, profileSync }),
    /** For services.onWorkingMemoryArchive: returns how many memories an expiring working memory left. */
    archive: createWorkingMemoryArchiver({ driver: env.driver, writer, eviction, log }),
    /** 000 "加载用户画像": the profile for context layer L1, or null when memory.enable_user_profile is off or it is empty. */
    profileForContext(): string | null {
      if (!settings.get()['memory.enable_user_profile']) return null;
      const content = profile.get().content;
      return content.trim() === '' ? null : content;
    },
  };
}

export type MemoryServices = ReturnType<typeof createMemoryServices>;
