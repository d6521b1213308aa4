import type { Logger } from '../../domain/log';
import { reconcile, type MemoryCandidate, type MemoryRecord } from '../../domain/memory';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { extractKeywords } from '../../domain/text/keywords';
import type { MemoryQuery } from '../store/memory-query';
import type { MemoryRepo } from '../store/memory-repo';
import type { HistoryActor } from '../store/memory-rows';
import { MAX_VALUE_BYTES } from './schemas';
import type { ExtractDecision } from './types';

/** How many full-text neighbours a candidate is compared with, besides the memories with its key. */
const NEIGHBOURS = 5;

export interface MemoryOriginRef {
  sessionId: string | null;
  messageId: number | null;
}

/**
 * Seed 000 "去重/冲突检测": a candidate meets its nearest active memories (same key, plus the closest
 * full-text matches), `reconcile` decides, and this writes the decision:
 *
 *   add ......... new memory
 *   update ...... patch in place (history keeps the old value)
 *   supersede ... new memory; the old one → status superseded, superseded_by = new id
 *   delete ...... a withdrawal ("我已经不在腾讯工作了"): the old one is retired (superseded, no successor),
 *                 not erased, so its history stays and the change can be undone
 *   noop/ignore . nothing
 */
export function createDecisionWriter(deps: { memories: MemoryRepo; query: MemoryQuery; log: Logger }) {
  const { memories, query, log } = deps;

  function neighbours(candidate: MemoryCandidate): MemoryRecord[] {
    const found = new Map(memories.activeByKey(candidate.key, null).map((m) => [m.id, m]));
    const terms = extractKeywords(candidate.content, { max: 12 });
    const match = buildMatchQuery(terms);
    if (match) {
      let near: MemoryRecord[];
      try {
        near = query.ftsCandidates(match, {}, NEIGHBOURS).map((r) => r.memory);
      } catch {
        log.warn('memory.fts-failed', { stage: 'reconcile' });
        near = query.likeCandidates(terms, {}, NEIGHBOURS);
      }
      for (const m of near) if (!found.has(m.id)) found.set(m.id, m);
    }
    return [...found.values()];
  }

  function insert(candidate: MemoryCandidate, opts: { origin: MemoryOriginRef; actor: HistoryActor; reason: string }): MemoryRecord {
    return memories.insert(
      {
        scope: 'global',
        projectId: null,
        sessionId: opts.origin.sessionId,
        messageId: opts.origin.messageId,
        category: candidate.category,
        key: candidate.key,
        value: candidate.value,
        content: candidate.content,
        tags: candidate.tags,
        confidence: candidate.confidence,
        source: candidate.source,
        language: candidate.language,
      },
      { actor: opts.actor, reason: opts.reason },
    );
  }

  /** Reconciles one candidate with what is stored and writes the outcome. */
  function write(candidate: MemoryCandidate, opts: { origin: MemoryOriginRef; actor: HistoryActor }): ExtractDecision {
    const base = { key: candidate.key, content: candidate.content };
    if (new TextEncoder().encode(JSON.stringify(candidate.value ?? null)).length > MAX_VALUE_BYTES) {
      return { kind: 'ignore', reason: 'value-too-large', ...base };
    }
    const decision = reconcile(candidate, neighbours(candidate));
    const { actor } = opts;
    switch (decision.kind) {
      case 'add':
        return { kind: 'add', memoryId: insert(candidate, { ...opts, reason: 'extract:add' }).id, ...base };
      case 'noop':
        return { kind: 'noop', memoryId: decision.targetId, reason: decision.reason, ...base };
      case 'ignore':
        return { kind: 'ignore', reason: decision.reason, ...base };
      case 'update':
        memories.change(decision.targetId, decision.patch, { action: 'update', actor, reason: 'extract:update' });
        return { kind: 'update', memoryId: decision.targetId, ...base };
      case 'supersede': {
        const next = insert(candidate, { ...opts, reason: 'extract:supersede' });
        memories.change(decision.targetId, { status: 'superseded', supersededBy: next.id }, { action: 'supersede', actor, reason: 'superseded' });
        return { kind: 'supersede', memoryId: next.id, replacedId: decision.targetId, ...base };
      }
      case 'delete':
        memories.change(decision.targetId, { status: 'superseded', supersededBy: null }, { action: 'supersede', actor, reason: 'retracted' });
        return { kind: 'delete', memoryId: decision.targetId, ...base };
    }
  }

  return { neighbours, write };
}

export type DecisionWriter = ReturnType<typeof createDecisionWriter>;
