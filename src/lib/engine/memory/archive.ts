import type { WorkingMemory } from '../../domain/conversation/types';
import { archiveCandidates } from '../../domain/conversation/working-memory';
import type { Logger } from '../../domain/log';
import type { MemoryCandidate } from '../../domain/memory';
import { detectLanguage, slugify } from '../../domain/memory/text-norm';
import type { SqlDriver } from '../store/driver';
import type { DecisionWriter } from './decision-writer';
import type { Eviction } from './eviction';

/** An inference from a conversation's temporary state, never as sure as what the user said. */
export const ARCHIVE_CONFIDENCE = 0.6;
const ARCHIVE_TAG = 'working-memory';

function toCandidate(item: { name: string; value: string }): MemoryCandidate {
  const topic = item.name === 'topic';
  const content = topic ? item.value : `${item.name}: ${item.value}`;
  return {
    category: topic ? 'pattern' : 'fact',
    key: topic ? `pattern.topic.${slugify(item.value) || 'unknown'}` : `fact.context.${slugify(item.name) || 'unknown'}`,
    value: topic ? { topic: item.value } : { name: item.name, value: item.value },
    content,
    confidence: ARCHIVE_CONFIDENCE,
    source: 'inferred',
    tags: topic ? [ARCHIVE_TAG, 'topic'] : [ARCHIVE_TAG],
    language: detectLanguage(content),
  };
}

/**
 * Seed 001 "Working memory auto-cleanup … 可选择将重要信息归档到长期记忆": before an idle working memory is
 * dropped, its durable context variables and a lasting topic become `inferred` memories, reconciled
 * like any other candidate (the same variable twice is a no-op; a new value updates it). Returns how
 * many memories were written. A failure is logged and archives nothing: the cleanup itself goes on.
 */
export function createWorkingMemoryArchiver(deps: { driver: SqlDriver; writer: DecisionWriter; eviction: Eviction; log: Logger }) {
  return (wm: WorkingMemory): number => {
    const items = archiveCandidates(wm);
    if (items.length === 0) return 0;
    try {
      return deps.driver.transaction(() => {
        let written = 0;
        for (const item of items) {
          const d = deps.writer.write(toCandidate(item), { origin: { sessionId: wm.sessionId, messageId: null }, actor: 'system' });
          if (d.kind === 'add' || d.kind === 'update' || d.kind === 'supersede') written++;
        }
        if (written > 0) deps.eviction.run();
        return written;
      });
    } catch (err) {
      deps.log.warn('memory.archive-failed', { cause: err instanceof Error ? err.name : 'unknown' });
      return 0;
    }
  };
}
