import { EngineError } from '../../domain/errors';
import type { Logger } from '../../domain/log';
import { applyProfileHints, extractCandidates, type MemoryCandidate } from '../../domain/memory';
import { readModelMemoryUpdates } from '../../domain/memory/memory-update';
import type { MessageRepo } from '../store/message-repo';
import type { ProfileRepo } from '../store/profile-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { DecisionWriter } from './decision-writer';
import type { Eviction } from './eviction';
import type { ExtractDecisionKind, ExtractResult } from './types';

/** Decisions that changed what is remembered (and so may change the profile). */
const CHANGED: ReadonlySet<ExtractDecisionKind> = new Set(['add', 'update', 'supersede', 'delete']);

/**
 * Seed 000 "原子记忆异步写入" / 001 "Create long-term memory from user statement". The UI calls it after a
 * reply has completed, without waiting for it; the work runs in the DB worker, never on the UI thread.
 *
 *   user message ─┬─ model memory_update JSON (zod-validated, each item grounded in the user's words) ─┐
 *                 │     └─ unusable (no valid item, some rejected) ─▶ rules ────────────────────────┤
 *                 └─ no model: heuristic rules ──────────────────────────────────────────────────┴▶ candidates
 *   candidates ─▶ reconcile + write ─▶ profile hints ─▶ new profile version
 *
 * Only the user's own message is read: the system prompt and the assistant's reply never become facts
 * about the user (an assistant message id is refused; a model item not grounded in the user's words is
 * rejected). Rejected model items are counted in the result and the log — nothing is skipped silently.
 */
export function createExtractionService(deps: {
  messages: MessageRepo;
  profile: ProfileRepo;
  writer: DecisionWriter;
  eviction: Eviction;
  settings: SettingsRepo;
  log: Logger;
}) {
  function userMessage(sessionId: string, messageId: number) {
    const message = deps.messages.find(messageId);
    if (!message) throw new EngineError('NOT_FOUND', 'No message with that `userMessageId`.', { field: 'userMessageId' });
    if (message.sessionId !== sessionId) {
      throw new EngineError('INVALID_ARGUMENT', 'Invalid `userMessageId`: the message belongs to another conversation than `sessionId`.', {
        fields: ['userMessageId'],
      });
    }
    if (message.role !== 'user') {
      throw new EngineError('INVALID_ARGUMENT', 'Invalid `userMessageId`: memories are learned from the user’s own messages, not from replies.', {
        fields: ['userMessageId'],
      });
    }
    return message;
  }

  return {
    extract(input: { sessionId: string; userMessageId: number; candidates?: unknown }): ExtractResult {
      const message = userMessage(input.sessionId, input.userMessageId);
      const maxContentLength = deps.settings.get()['memory.atomic_content_max_length'];
      let candidates: MemoryCandidate[];
      let invalid: ExtractResult['invalid'] = [];
      let extractor: ExtractResult['extractor'] = 'rules';
      if (input.candidates === undefined) {
        candidates = extractCandidates(message.content, { maxContentLength });
      } else {
        const read = readModelMemoryUpdates(input.candidates, { userText: message.content, maxContentLength });
        invalid = read.rejected;
        candidates = read.candidates;
        extractor = 'model';
        // An answer with nothing usable but something rejected (or no JSON at all) says nothing about
        // the message: the rules read it instead.
        if (candidates.length === 0 && (invalid.length > 0 || !read.parsed)) {
          candidates = extractCandidates(message.content, { maxContentLength });
          extractor = 'rules-fallback';
        }
      }

      const origin = { sessionId: message.sessionId, messageId: message.id };
      const decisions = candidates.map((c) => deps.writer.write(c, { origin, actor: 'extractor' }));

      // 000 "更新用户画像": what changed and touches style, language or background goes into the profile.
      const hints = candidates.flatMap((c, i) => (CHANGED.has(decisions[i]!.kind) ? (c.profile ?? []) : []));
      const before = deps.profile.get();
      const applied = hints.length > 0 ? applyProfileHints(before.content, hints) : null;
      const after = applied?.changed ? deps.profile.write(applied.text, { actor: 'extractor', reason: 'extract' }) : before;

      const evicted = deps.eviction.run().evicted.length;
      deps.log.info('memory.extracted', {
        source: extractor,
        candidates: candidates.length,
        written: decisions.filter((d) => CHANGED.has(d.kind)).length,
        invalid: invalid.length,
        profileChanged: after.version !== before.version,
        evicted,
      });
      return {
        extractor,
        decisions,
        profileChanged: after.version !== before.version,
        profileChanges: applied?.changed ? applied.changes : [],
        profileVersion: after.version,
        invalid,
        evicted,
      };
    },
  };
}

export type ExtractionService = ReturnType<typeof createExtractionService>;
