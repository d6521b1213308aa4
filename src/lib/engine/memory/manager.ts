import type { IdGen } from '../../domain/clock';
import { EngineError } from '../../domain/errors';
import type { MemoryCategory, MemoryRecord } from '../../domain/memory';
import { codePointLength, detectLanguage } from '../../domain/memory/text-norm';
import type { SqlDriver } from '../store/driver';
import type { MemoryRepo } from '../store/memory-repo';
import type { MemorySnapshot } from '../store/memory-rows';
import type { MessageRepo } from '../store/message-repo';
import type { ProfileRepo } from '../store/profile-repo';
import type { SessionRepo } from '../store/session-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { MemoryQuery } from '../store/memory-query';
import type { Eviction } from './eviction';
import type { ProfileSync } from './profile-sync';
import type { ClearReport, DeleteResult, MemoryDetail } from './types';

export interface CreateMemoryInput {
  content: string;
  category: MemoryCategory;
  key?: string;
  value?: unknown;
  tags: string[];
  confidence: number;
  importance?: number;
  scope: MemoryRecord['scope'];
  projectId?: string;
}

export interface UpdateMemoryInput {
  id: string;
  expectedVersion?: number;
  content?: string;
  value?: unknown;
  tags?: string[];
  category?: MemoryCategory;
  key?: string;
  confidence?: number;
  importance?: number;
}

/**
 * What a person does in the memory manager (seed 000 "完整 CRUD", seed 001 list/get/delete/clear):
 * every create and edit is a history row with actor `user`; delete and clear are permanent.
 */
export function createMemoryManager(deps: {
  driver: SqlDriver;
  ids: IdGen;
  memories: MemoryRepo;
  sessions: SessionRepo;
  messages: MessageRepo;
  profile: ProfileRepo;
  settings: SettingsRepo;
  eviction: Eviction;
  query: MemoryQuery;
  profileSync: ProfileSync;
}) {
  const { memories } = deps;

  /** Every memory, current or replaced, page by page (what a full clear takes out of the profile). */
  function everything(): MemoryRecord[] {
    const out: MemoryRecord[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = deps.query.list({ filters: { status: 'all' }, sort: 'created', limit: 500, offset });
      out.push(...page.items);
      if (page.items.length < 500) return out;
    }
  }

  /** 000 memory.atomic_content_max_length, read per call so a change applies to the next request. */
  function checkContent(content: string | undefined): void {
    if (content === undefined) return;
    const max = deps.settings.get()['memory.atomic_content_max_length'];
    if (codePointLength(content) > max) {
      throw new EngineError('INVALID_ARGUMENT', `Invalid \`content\`: must be at most ${max} characters (memory.atomic_content_max_length).`, {
        fields: ['content'],
      });
    }
  }

  function checkScope(scope: MemoryRecord['scope'], projectId: string | undefined): string | null {
    if (scope === 'global') {
      if (projectId !== undefined) {
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `projectId`: a global memory belongs to no project (use scope "project").', {
          fields: ['projectId'],
        });
      }
      return null;
    }
    if (projectId === undefined) {
      throw new EngineError('INVALID_ARGUMENT', 'Invalid `projectId`: a project memory needs its project.', { fields: ['projectId'] });
    }
    if (!deps.driver.get('SELECT 1 FROM projects WHERE id = ?', [projectId])) {
      throw new EngineError('NOT_FOUND', 'No project with that `projectId`.', { field: 'projectId' });
    }
    return projectId;
  }

  return {
    get(id: string): MemoryDetail {
      const memory = memories.mustFind(id);
      const session = memory.sessionId ? deps.sessions.find(memory.sessionId) : undefined;
      const message = memory.messageId !== null ? deps.messages.find(memory.messageId) : undefined;
      return {
        memory,
        history: memories.history(id),
        origin: memory.sessionId
          ? {
              sessionId: memory.sessionId,
              messageId: memory.messageId,
              sessionTitle: session?.title ?? null,
              messageExists: message !== undefined && message.sessionId === memory.sessionId,
            }
          : null,
        supersededBy: memory.supersededBy ? (memories.find(memory.supersededBy) ?? null) : null,
        supersedes: memories.supersededBy(id),
      };
    },

    /** A manual memory: user_stated, confidence 1.0 unless given. A given key supersedes its current holder. */
    create(input: CreateMemoryInput): MemoryRecord {
      checkContent(input.content);
      const projectId = checkScope(input.scope, input.projectId);
      const id = deps.ids();
      const key = input.key ?? `${input.category}.note.${id}`;
      const previous = input.key ? memories.activeByKey(key, projectId) : [];
      const memory = memories.insert(
        {
          scope: input.scope,
          projectId,
          sessionId: null,
          messageId: null,
          category: input.category,
          key,
          value: input.value === undefined ? input.content : input.value,
          content: input.content,
          tags: [...new Set(input.tags)],
          confidence: input.confidence,
          source: 'user_stated',
          language: detectLanguage(input.content),
          importance: input.importance,
        },
        { actor: 'user', reason: 'manual', id },
      );
      for (const old of previous) {
        memories.change(old.id, { status: 'superseded', supersededBy: memory.id }, { action: 'supersede', actor: 'user', reason: 'superseded' });
      }
      deps.eviction.run();
      return memories.mustFind(memory.id);
    },

    update(input: UpdateMemoryInput): MemoryRecord {
      const current = memories.mustFind(input.id);
      if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
        throw new EngineError('CONFLICT', 'The memory changed since it was opened (`expectedVersion` is stale). Reload it and edit again.', {
          field: 'expectedVersion',
          currentVersion: current.version,
        });
      }
      checkContent(input.content);
      const patch: Partial<MemorySnapshot> = {};
      if (input.content !== undefined) patch.content = input.content;
      if (input.value !== undefined) patch.value = input.value;
      // A note whose value only mirrors its text (manual memories by default) keeps mirroring it.
      else if (input.content !== undefined && current.value === current.content) patch.value = input.content;
      if (input.tags !== undefined) patch.tags = [...new Set(input.tags)];
      if (input.category !== undefined) patch.category = input.category;
      if (input.key !== undefined) patch.key = input.key;
      if (input.confidence !== undefined) patch.confidence = input.confidence;
      if (input.importance !== undefined) patch.importance = input.importance;
      const memory = memories.change(input.id, patch, { action: 'update', actor: 'user', reason: 'edit' });
      // An edited memory rewrites the profile line it wrote (and only that line, if still as written).
      if (current.status === 'active') deps.profileSync.sync({ gone: [current], back: [memory] }, { actor: 'user', reason: 'memory-edit' });
      return memory;
    },

    /** Seed 001 "User delete specific memory": permanent, with its history — and its line in the profile. */
    remove(id: string): DeleteResult {
      const memory = memories.mustFind(id);
      memories.remove(id);
      const gone = memory.status === 'active' ? [memory] : [];
      return { deleted: true, id, ...deps.profileSync.sync({ gone }, { actor: 'user', reason: 'memory-delete' }) };
    },

    /**
     * Seed 001 "User clear all memories": every long-term memory (and, when asked, the profile) goes;
     * working memories are untouched and live until their sessions end.
     */
    clear(input: { confirm: boolean; includeProfile: boolean }): ClearReport {
      if (!input.confirm) {
        throw new EngineError('MEMORY_CLEAR_CONFIRM_REQUIRED', 'Deleting every memory needs `confirm: true`. Nothing was deleted.', {
          field: 'confirm',
        });
      }
      if (input.includeProfile) {
        const report = memories.clear();
        const versions = deps.profile.clear();
        return { ...report, profileVersionsDeleted: versions, profileChanged: versions > 0, profileChanges: [], profileVersion: 0 };
      }
      // The profile stays, minus every line the memories wrote into it (what the user wrote stays).
      const all = everything();
      const report = memories.clear();
      return { ...report, profileVersionsDeleted: 0, ...deps.profileSync.sync({ gone: all }, { actor: 'user', reason: 'memory-clear' }) };
    },
  };
}

export type MemoryManager = ReturnType<typeof createMemoryManager>;
