/**
 * context.build (seed 004 "构建一次 SKILL 调用的上下文包"; chat turns too): load each layer's sources —
 * only what the skill's `context_rules` ask for — each under `loadLayer`'s deadline, assemble them with
 * the pure core, then store the run, its trace and the memories it used in ONE transaction.
 *
 *   skill ─▶ compact history? ─▶ L5 window ─▶ L0 L1 L2 L3 L4 (in parallel) ─▶ assembleContext
 *     └──────────────────────────────────────────────────────────────────────────────┐
 *   transaction: cancel older pending runs here · insert run (pending) · trace · markAccessed(kept L4) · prune prompts
 *
 * A source that fails or times out becomes its layer's marker (never an exception); only L0 failing is
 * fatal (TIMEOUT from the core). Each source runs in its own turn of the event loop, so
 * `context.cancel { requestId }` lands between sources: a canceled build returns CANCELED and stores
 * no run (nothing pending).
 */
import {
  assembleContext,
  isRequested,
  layerSpec,
  loadLayer,
  promptLanguage,
  type ContextItem,
  type LayerId,
  type LayerInput,
  type RuleField,
} from '../../domain/context';
import { EngineError } from '../../domain/errors';
import type { Settings } from '../../domain/settings';
import { createTokenCounter, loadTokenizer } from '../../domain/text/tokens';
import { historyItems, memoryItems, recallItems, sessionSummaryItems, taskItems, turnItems, windowTurns, workingMemoryItems } from './dynamic-sources';
import { DEFAULT_RULES, preferenceItems, profileItems, rulesItems, settingsItems } from './static-sources';
import { createBuildRegistry, nextTask } from './build-registry';
import { deriveTrace } from './trace';
import { prepareLearningContext } from '../episodes/context-source';
import type { ContextDeps } from './deps';
import { isUnreadable } from '../store/sqlite-errors';
import type { ContextBuildResult } from './types';

export interface BuildInput {
  kind: 'chat' | 'skill';
  skillId?: string;
  sessionId?: string;
  projectId?: string;
  documentId?: string;
  message: string;
  excludeMessageId?: number;
  selection?: { before: string; text: string; after: string };
  budgets?: Partial<Record<LayerId, number>>;
  tokenRatio?: number;
  locale: 'en' | 'zh-CN';
  /** The caller's id for this build, so `context.cancel` can stop it. */
  requestId?: string;
  /** The message is an instruction the user typed, not the skill's default (an intent for working memory). */
  typed?: boolean;
  /** The settings as the caller read them for this turn (turn.prepare), so the build does not read them again; absent: read here. */
  settings?: Settings;
}

const QUERY_CHARS = 4000;

/** What the context's recall and memory retrieval search for: the message, and the selected text when there is one. */
export function contextQuery(message: string, selectionText?: string): string {
  return [message, selectionText ?? ''].join('\n').slice(0, QUERY_CHARS);
}
const unavailable = (s: LayerInput['status']) => s === 'missing' || s === 'timeout' || s === 'canceled';

/** L4 is several sources; one failing degrades the layer, all failing make it unavailable. */
function mergeParts(parts: readonly (LayerInput | null)[]): LayerInput {
  const loaded = parts.filter((p): p is LayerInput => p !== null);
  if (loaded.length === 0) return { status: 'empty', items: [], reason: 'not-requested' };
  const failed = loaded.filter((p) => unavailable(p.status ?? 'ok'));
  const items = loaded.flatMap((p) => p.items);
  const reason = failed.map((p) => p.reason ?? p.status).join(',');
  if (failed.length === 0) return { status: items.length > 0 ? 'ok' : 'empty', items };
  if (failed.length === loaded.length) return { status: failed[0]?.status ?? 'missing', items: [], reason };
  return { status: 'degraded', items, reason };
}

export function createContextService(deps: ContextDeps) {
  const { env, tuning } = deps;
  const builds = createBuildRegistry();

  function resolveScope(input: BuildInput) {
    const skillId = input.skillId ?? (input.kind === 'chat' ? 'chat' : undefined);
    if (!skillId) throw new EngineError('INVALID_ARGUMENT', 'Invalid `skillId`: a skill run names its skill', { fields: ['skillId'] });
    const skill = deps.skills.get(skillId);
    const session = input.sessionId ? deps.sessions.find(input.sessionId) : null;
    if (input.sessionId && !session) throw new EngineError('NOT_FOUND', 'No conversation with that `sessionId`.', { field: 'sessionId' });
    const document = input.documentId ? deps.documents.mustFind(input.documentId, 'documentId') : null;
    if (input.projectId) deps.projects.mustFind(input.projectId, 'projectId');
    if (document && input.projectId && document.projectId !== input.projectId) {
      throw new EngineError('INVALID_ARGUMENT', 'Invalid `documentId`: the document belongs to another project', { fields: ['documentId'] });
    }
    if (session?.projectId && input.projectId && session.projectId !== input.projectId) {
      throw new EngineError('INVALID_ARGUMENT', 'Invalid `sessionId`: the conversation belongs to another project', { fields: ['sessionId'] });
    }
    const projectId = input.projectId ?? document?.projectId ?? session?.projectId ?? null;
    return { skill, session: session ?? null, document, projectId };
  }

  async function build(input: BuildInput): Promise<ContextBuildResult> {
    const run = builds.begin(input.requestId);
    try {
      // Loaded on the first build, not at the worker's start (tokens.ts).
      await loadTokenizer();
      return await buildIn(input, run.signal);
    } finally {
      run.end();
    }
  }

  async function buildIn(input: BuildInput, cancel: AbortSignal): Promise<ContextBuildResult> {
    const { skill, session, document, projectId } = resolveScope(input);
    const rules = skill.rules;
    const wants = (field: RuleField) => !rules || isRequested(rules, field);
    const cfg = input.settings ?? deps.settings.get();
    const counter = createTokenCounter({ ratio: input.tokenRatio });
    // One language for every word the engine adds (issue 15): the message's, else the selection's, else the UI's.
    const lang = promptLanguage([input.message, input.selection?.text, input.selection?.before], input.locale);
    const load = (id: LayerId, fn: (signal: AbortSignal) => ContextItem[] | Promise<ContextItem[]>) =>
      loadLayer({
        id,
        load: async (signal) => {
          await nextTask();
          return signal.aborted ? [] : fn(signal);
        },
        timeoutMs: tuning.sourceTimeoutMs,
        signal: cancel,
        logger: env.log,
      });
    const stopIfCanceled = () => {
      if (cancel.aborted) throw new EngineError('CANCELED', 'The context build was canceled (`requestId`); no run was stored.', { field: 'requestId' });
    };

    // The conversation's due rolling summaries, then 004 full → compact, before L4 reads the history.
    // Summaries are memory: when they cannot be read (003 记忆系统降级策略) the turn goes on without them —
    // L4's summary source then fails on its own and is marked, never the build.
    if (session && wants('summaries')) {
      try {
        deps.rolling.roll(session.id, cfg);
        deps.compaction.maybeCompact(session.id);
      } catch (err) {
        if (!isUnreadable(err)) throw err;
        env.log.warn('context.summaries-unreadable', { reason: err instanceof Error ? err.message.slice(0, 80) : 'error' });
      }
    }
    // The same for a project's skill runs, inside their L4 source (run-history.ts).
    const runHistory = input.kind === 'skill' && projectId !== null && wants('summaries');

    // 003 三层记忆: a skill run takes in episodes (L4) and, on a chapter, the writing working memory (L5).
    const learning =
      input.kind === 'skill'
        ? prepareLearningContext(deps, {
            skillId: skill.id,
            projectId,
            document,
            selection: input.selection,
            message: input.message,
            typed: input.typed ?? false,
            l5Budget: input.budgets?.L5 ?? layerSpec('L5').defaultBudget,
            chapterContext: wants('summaries'),
          })
        : null;

    // L5 first: L4's history starts where the rolling window ends.
    let firstWindowTurn = (session?.turnCount ?? 0) + 1;
    const windowPart = await load('L5', () => {
      if (!session) return [];
      const turns = wants('turns')
        ? windowTurns(deps.messages.list(session.id, { limit: cfg['chat.context_limit'] + 2 }), {
            contextLimit: cfg['chat.context_limit'],
            exclude: input.excludeMessageId,
          })
        : [];
      firstWindowTurn = turns[0]?.turnNo ?? firstWindowTurn;
      return [...workingMemoryItems(deps.workingMemory.peek(session.id), lang), ...turnItems(turns)];
    });
    const task = taskItems({ message: input.message, selection: input.selection });
    const immediate = [...(learning?.workingMemory ?? []), ...task];
    const l5: LayerInput = unavailable(windowPart.status ?? 'ok')
      ? { status: 'degraded', items: immediate, reason: windowPart.reason ?? 'missing' }
      : { status: 'ok', items: [...windowPart.items, ...immediate] };

    const query = contextQuery(input.message, input.selection?.text);
    const topN = typeof rules?.memories === 'object' && rules.memories.topN !== undefined ? rules.memories.topN : cfg['memory.rag_top_n'];
    const history = wants('summaries') && (session !== null || input.kind === 'chat');
    const needsFiles = wants('characters') || wants('project-settings') || wants('style');
    const skip = (reason: string): Promise<LayerInput> => Promise.resolve({ status: 'empty', items: [], reason });
    const l3Budget = input.budgets?.L3 ?? layerSpec('L3').defaultBudget;

    const [l0, l1, l2raw, l3, ...l4parts] = await Promise.all([
      load('L0', () => rulesItems(skill, lang)),
      cfg['memory.enable_user_profile'] ? load('L1', () => profileItems(deps.memory)) : skip('disabled'),
      // 004 "可删除/关闭": switched off, L2 is masked to its fixed empty placeholder, never removed.
      cfg['preferences.inject'] ? load('L2', () => preferenceItems(deps.rules, projectId, deps.learning.conflicts, deps.env.clock.now())) : skip('disabled'),
      !projectId
        ? skip('no-project')
        : !needsFiles
          ? skip('not-requested')
          : load('L3', (signal) => settingsItems({ files: deps.files, projectId, rules, maxChars: l3Budget * 8, signal })),
      wants('memories') ? load('L4', async () => memoryItems(await deps.memory.retrieve({ query, topN, sessionId: session?.id, projectId }))) : null,
      learning && wants('episodes') ? load('L4', () => learning.episodes()) : null,
      session && wants('summaries') ? load('L4', () => historyItems(deps.summaries.list(session.id), firstWindowTurn)) : null,
      history
        ? load('L4', async () => {
            return recallItems(
              (await deps.recall.recall({
                query,
                limit: tuning.recallLimit,
                currentSessionId: session?.id,
                recentTurns: cfg['chat.recent_full_turns'],
                blockSize: cfg['chat.summary_block'],
                includeSummaries: true,
              })).results.filter((h) => h.conversationId !== session?.id),
              { minRelevance: tuning.recallMinRelevance, counter },
            );
          })
        : null,
      runHistory ? load('L4', () => deps.runHistory.load(projectId)) : null,
      history
        ? load('L4', () =>
            sessionSummaryItems(deps.contextQuery.recentSessionSummaries({ excludeSessionId: session?.id ?? null, limit: cfg['memory.session_summary_limit'] })),
          )
        : null,
    ]);
    stopIfCanceled();
    // 003 "记忆检索失败时降级到默认规则": unreadable rules → built-in defaults, visibly degraded.
    const l2: LayerInput = unavailable(l2raw.status ?? 'ok') ? { status: 'degraded', items: [...DEFAULT_RULES[lang]], reason: l2raw.reason } : l2raw;

    const pkg = await assembleContext({
      layers: { L0: l0, L1: l1, L2: l2, L3: l3, L4: mergeParts(l4parts), L5: l5 },
      budgets: input.budgets,
      counter,
      locale: input.locale,
      language: lang,
      ...(rules ? { skill: { id: skill.id, rules } } : {}),
      capabilities: { project: projectId !== null },
    });
    stopIfCanceled();

    const runId = env.ids();
    const l4Kept = pkg.layers.find((l) => l.id === 'L4')?.items ?? [];
    const memoryIds = l4Kept.filter((i) => i.id.startsWith('memory:')).map((i) => i.id.slice('memory:'.length));
    const inputChars = Array.from(input.selection?.text || input.message).length;
    env.driver.transaction(() => {
      deps.runs.cancelPending({ sessionId: session?.id ?? null, documentId: document?.id ?? null });
      deps.runs.insert({
        id: runId,
        kind: input.kind,
        skillId: skill.id,
        sessionId: session?.id ?? null,
        projectId,
        documentId: document?.id ?? null,
        stablePrefixHash: pkg.stablePrefixHash,
        layers: pkg.layers,
        memoryIds,
        totalTokens: pkg.totalTokens,
        memoryDegraded: pkg.memoryDegraded,
        inputChars,
        messages: pkg.messages,
      });
      deps.traces.insert(runId, deriveTrace(pkg.layers));
      learning?.commit(runId, pkg.layers);
      // 001 access tracking: only what the context kept, not what the budget cut.
      if (memoryIds.length > 0) deps.memory.markAccessed(memoryIds);
      deps.runs.pruneMessages(tuning.runMessagesKept);
    });
    env.log.info('context.built', { skill: skill.id, tokens: pkg.totalTokens, degraded: pkg.memoryDegraded, memories: memoryIds.length });
    return {
      runId,
      stablePrefixHash: pkg.stablePrefixHash,
      messages: pkg.messages,
      layers: pkg.layers,
      memoryIds,
      totalTokens: pkg.totalTokens,
      memoryDegraded: pkg.memoryDegraded,
    };
  }

  return { build, cancel: (requestId: string) => builds.cancel(requestId) };
}

export type ContextService = ReturnType<typeof createContextService>;
