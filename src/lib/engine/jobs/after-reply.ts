import { z } from 'zod';
import { unwrap } from '../../domain/errors';
import type { ModelProvider } from '../../domain/llm/types';
import { memoryExtractionMessages } from '../../domain/memory/extraction-prompt';
import type { EngineCaller } from '../client/caller';
import type { ProfileEffect } from '../memory/types';

export interface AfterReplyInput {
  sessionId: string;
  userMessageId: number;
  assistantMessageId?: number;
  /** The run whose turn.finish queued this work: marked done at the end (turn.afterReplyDone). */
  runId?: string;
}

export interface RememberedItem {
  kind: string;
  memoryId?: string;
  content: string;
}

export interface AfterReplyResult {
  remembered: RememberedItem[];
  /** What extraction changed in the profile (the chat shows it, with Undo). */
  profile: ProfileEffect;
  /**
   * 'model' when the model's memory_update was used, 'rules' for the zh/en heuristics (no model, or it
   * could not be reached), 'rules-fallback' when the model answered but nothing in it was usable.
   */
  extractor: 'model' | 'rules' | 'rules-fallback';
  /** How many of the model's proposed memories were not used (invalid, or not in the user's words). */
  invalid: number;
  summariesImproved: number;
}

const SUMMARY_SYSTEM =
  'Summarise these conversation turns in at most 3 sentences in their language. Reply with JSON only: {"summary": string, "key_symbols": [code symbols], "key_decisions": [decisions or conclusions]}.';

/**
 * Runs in the jobs worker after each completed reply (seed 000 "原子记忆异步写入", issue 4 item 2):
 * extraction with the model when there is one (rules otherwise, or when the model's answer is unusable),
 * then, with a model, better summaries for blocks that only have extractive ones.
 */
export async function afterReply(opts: { engine: EngineCaller; provider: ModelProvider; input: AfterReplyInput }): Promise<AfterReplyResult> {
  const { engine, provider, input } = opts;
  let candidates: unknown;
  // The turn's two messages, read once for both model calls.
  const texts = provider.canGenerate ? await turnTexts(engine, input) : null;
  if (texts) {
    const { user, assistant } = texts;
    try {
      candidates = await provider.json(
        { messages: memoryExtractionMessages({ userText: user.content, assistantText: assistant?.content }), json: true, temperature: 0 },
        // Validated (strictly, item by item) by the engine's memory.extract, not here.
        z.unknown(),
      );
    } catch {
      // An unreachable model or an unusable answer: the rules still run (nothing is silently skipped).
      candidates = undefined;
    }
  }
  const extracted = unwrap(
    await engine.call('memory.extract', { sessionId: input.sessionId, userMessageId: input.userMessageId, ...(candidates === undefined ? {} : { candidates }) }),
  );
  // The conversation's due rolling summaries (storing the turns did not make them), then, with a model, better ones.
  unwrap(await engine.call('summary.roll', { sessionId: input.sessionId }));
  let summariesImproved = 0;
  if (texts) {
    await analyseTurn(engine, provider, input, texts);
    summariesImproved = await improveSummaries(engine, provider);
  }
  if (input.runId) unwrap(await engine.call('turn.afterReplyDone', { runId: input.runId }));
  const { profileChanged, profileChanges, profileVersion } = extracted;
  return {
    remembered: extracted.decisions.filter((d) => d.kind !== 'noop' && d.kind !== 'ignore'),
    profile: { profileChanged, profileChanges, profileVersion },
    extractor: extracted.extractor,
    invalid: extracted.invalid.length,
    summariesImproved,
  };
}

const EMOTIONS = ['joy', 'gratitude', 'anger', 'frustration', 'sadness', 'anxiety', 'surprise', 'neutral'] as const;
const analysisSchema = z.object({
  current_topic: z.string().trim().min(1).max(200).nullable().catch(null),
  context_variables: z.record(z.string().max(80), z.string().max(400)).catch({}),
  last_emotion: z.enum(EMOTIONS).nullable().catch(null),
});
const ANALYSIS_SYSTEM =
  'You track the state of a conversation. From the USER MESSAGE (and the assistant reply for context) reply with JSON only: ' +
  '{"current_topic": short topic or null, "context_variables": {name: value} for temporary facts of this conversation (versions, file names, deadlines, settings), ' +
  `"last_emotion": one of ${EMOTIONS.join('|')} or null}. Use the user's language for the topic.`;

/** Seed 001 "Working memory update on each turn": with a model, its analysis sets topic, variables and emotion. */
type TurnTexts = { user: { content: string }; assistant: { content: string } | undefined };

/** The user's message and the reply; null when one is gone (deleted since), which leaves the rules to work alone. */
async function turnTexts(engine: EngineCaller, input: AfterReplyInput): Promise<TurnTexts | null> {
  const user = await engine.call('message.get', { id: input.userMessageId });
  const assistant = input.assistantMessageId ? await engine.call('message.get', { id: input.assistantMessageId }) : undefined;
  if (!user.ok || (assistant && !assistant.ok)) return null;
  return { user: user.data, assistant: assistant?.ok ? assistant.data : undefined };
}

async function analyseTurn(engine: EngineCaller, provider: ModelProvider, input: AfterReplyInput, { user, assistant }: TurnTexts): Promise<void> {
  try {
    const analysis = await provider.json(
      {
        messages: [
          { role: 'system', content: ANALYSIS_SYSTEM },
          { role: 'user', content: `USER MESSAGE:\n${user.content.slice(0, 4000)}${assistant ? `\n\nASSISTANT REPLY:\n${assistant.content.slice(0, 1500)}` : ''}` },
        ],
        json: true,
        temperature: 0,
      },
      analysisSchema,
    );
    await engine.call('workingMemory.update', {
      sessionId: input.sessionId,
      currentTopic: analysis.current_topic,
      contextVariables: Object.fromEntries(Object.entries(analysis.context_variables).slice(0, 24)),
      lastEmotion: analysis.last_emotion,
    });
  } catch {
    // The heuristic working memory (updated when the message was stored) stays as it is.
  }
}

async function improveSummaries(engine: EngineCaller, provider: ModelProvider): Promise<number> {
  const pending = await engine.call('summary.pending', { limit: 2 });
  if (!pending.ok) return 0;
  let improved = 0;
  for (const s of pending.data) {
    try {
      const turns = unwrap(await engine.call('summary.turns', { id: s.id }));
      const transcript = turns.map((m) => `${m.role === 'user' ? 'U' : 'A'}${m.turnNo}: ${m.content.slice(0, 1500)}`).join('\n');
      const raw = await provider.json(
        { messages: [{ role: 'system', content: SUMMARY_SYSTEM }, { role: 'user', content: transcript }], json: true, temperature: 0 },
        summaryReplySchema,
      );
      const res = await engine.call('summary.replace', {
        id: s.id,
        summary: raw.summary.slice(0, 4000),
        keySymbols: raw.key_symbols.slice(0, 30).map((x) => x.slice(0, 200)),
        keyDecisions: raw.key_decisions.slice(0, 20).map((x) => x.slice(0, 400)),
      });
      if (res.ok) improved++;
    } catch {
      // The extractive summary stays; the next reply tries again.
    }
  }
  return improved;
}

const summaryReplySchema = z.object({
  summary: z.string().min(1),
  key_symbols: z.array(z.string()).default([]),
  key_decisions: z.array(z.string()).default([]),
});
