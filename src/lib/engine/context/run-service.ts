/**
 * Runs for the inspector and their life cycle (seed 004 "用户取消/超时": nothing stays pending):
 *
 *   context.build ─▶ pending ──run.complete──▶ completed | canceled | failed | timeout
 *                      │ a newer build in the same conversation/document ─▶ canceled
 *                      └ run.sweep (jobs worker), older than 10 minutes   ─▶ timeout
 *
 * Plus 003 provenance: run.trace and the user's verdict on it (run.traceFeedback).
 */
import { markGone } from './trace-gone';
import { EngineError } from '../../domain/errors';
import type { ContextDeps } from './deps';
import type { GenerationTrace, RunDetail, RunStatus, RunSummary } from './types';
import { importanceOf, valenceOf } from '../../domain/episodes/signals';
import type { SceneType } from '../../domain/episodes/scene-type';

/** 003 "判断有误": how much a learned rule's confidence drops when the user says the trace was wrong. */
export const TRACE_PENALTY = 0.1;

export function createRunService(deps: ContextDeps) {
  const { runs } = deps;
  /** The run's memories that L4 did not place: the ones the model's search_memories found. */
  const strip = ({ inputChars: _inputChars, ...record }: ReturnType<typeof runs.mustFind>): RunDetail => {
    const placed = new Set(record.layers.find((l) => l.id === 'L4')?.items.filter((i) => i.id.startsWith('memory:')).map((i) => i.id.slice(7)));
    return { ...record, toolMemoryIds: record.memoryIds.filter((id) => !placed.has(id)) };
  };
  const summary = ({ layers: _l, memoryIds: _m, toolMemoryIds: _t, messages: _x, messagesPruned: _p, ...s }: RunDetail): RunSummary => s;

  return {
    complete(input: { runId: string; status: Exclude<RunStatus, 'pending'>; messageId?: number }): RunSummary {
      const run = runs.mustFind(input.runId);
      if (run.status !== 'pending') {
        // A repeat of the same completion (a retried call) is answered, anything else is a conflict.
        if (run.status === input.status && (input.messageId === undefined || input.messageId === run.messageId)) return summary(strip(run));
        throw new EngineError('CONFLICT', `The run (\`runId\`) is already ${run.status}; it cannot become ${input.status}.`, { field: 'runId', status: run.status });
      }
      if (input.messageId !== undefined) {
        const message = deps.messages.find(input.messageId);
        if (!message) throw new EngineError('NOT_FOUND', 'No message with that `messageId`.', { field: 'messageId' });
        if (run.sessionId !== null && message.sessionId !== run.sessionId) {
          throw new EngineError('INVALID_ARGUMENT', 'Invalid `messageId`: the message belongs to another conversation', { fields: ['messageId'] });
        }
      }
      runs.finish(input.runId, input.status, input.messageId);
      return summary(strip(runs.mustFind(input.runId)));
    },
    get: (runId: string): RunDetail => strip(runs.mustFind(runId)),
    list: (opts: { sessionId?: string; documentId?: string; limit: number }) => runs.list(opts),
    /** The run behind a chat reply: by run.complete's messageId, else by the reply's meta.runId. */
    forMessage(messageId: number): RunDetail {
      const direct = runs.forMessage(messageId);
      if (direct) return strip(direct);
      const viaMeta = deps.messages.find(messageId)?.meta.runId;
      const run = viaMeta ? runs.find(viaMeta) : undefined;
      if (!run) throw new EngineError('NOT_FOUND', 'No context run is recorded for that `messageId`.', { field: 'messageId' });
      return strip(run);
    },
    trace(runId: string): GenerationTrace {
      runs.mustFind(runId);
      const trace = deps.traces.find(runId);
      if (!trace) throw new EngineError('NOT_FOUND', 'That run (`runId`) has no trace.', { field: 'runId' });
      return { ...trace, memoryReferences: markGone(deps.env.driver, trace.memoryReferences) };
    },
    /**
     * 003 memory:trace:feedback. "incorrect" about one referenced learned rule lowers its confidence,
     * records the run as contradicting evidence and keeps the cut as the rule's `penalty`, which every
     * later distillation subtracts again (so it stays lowered); "负反馈作为新情景记忆参与后续蒸馏": the
     * verdict is also an episode that votes against the rule's patterns. Confirmed rules are the user's
     * and stay as they are.
     */
    traceFeedback(input: { runId: string; verdict: 'correct' | 'incorrect'; referenceId?: string }): GenerationTrace {
      const trace = this.trace(input.runId);
      if (input.referenceId !== undefined && !trace.memoryReferences.some((r) => r.id === input.referenceId)) {
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `referenceId`: not a reference of this trace', { fields: ['referenceId'] });
      }
      deps.traces.setVerdict(input.runId, input.verdict);
      const ruleId = input.referenceId?.startsWith('preference:') ? input.referenceId.slice('preference:'.length) : null;
      const rule = ruleId ? deps.rules.find(ruleId) : undefined;
      if (input.verdict === 'incorrect' && rule && rule.status === 'active' && !rule.userConfirmed) {
        const run = runs.mustFind(input.runId);
        const verdict = rule.basis.length
          ? deps.episodes.insert({
              kind: 'verdict',
              // The run has (or will have) its own skill-run episode; a verdict stands apart.
              runId: null,
              skillId: run.skillId,
              projectId: run.projectId,
              documentId: run.documentId,
              sceneType: (deps.learning.runs.find(run.id)?.sceneType ?? 'narration') as SceneType,
              inputSummary: `判断有误 · judged wrong: ${rule.rule}`.slice(0, 200),
              candidates: [],
              selectedIndex: 0,
              finalText: null,
              explicit: null,
              implicit: 'verdict-negative',
              valence: valenceOf('verdict-negative'),
              editDistance: null,
              features: { candidates: [] },
              negated: rule.basis,
              importance: importanceOf('verdict-negative'),
            })
          : null;
        const after = deps.rules.patch(rule.id, {
          confidence: Math.max(0, Math.round((rule.confidence - TRACE_PENALTY) * 100) / 100),
          contradicting: [...new Set([...rule.contradicting, verdict ? verdict.id : `trace:${input.runId}`])],
          penalty: Math.min(1, Math.round((rule.penalty + TRACE_PENALTY) * 100) / 100),
        });
        deps.learning.history.add({
          ruleId: rule.id,
          projectId: rule.projectId,
          action: 'verdict',
          actor: 'user',
          before: { rule: rule.rule, confidence: rule.confidence, version: rule.version },
          after: { rule: after.rule, confidence: after.confidence, version: after.version },
          episodes: verdict ? [verdict.id] : [],
          distillId: null,
        });
      }
      return this.trace(input.runId);
    },
    /**
     * 000 "主动记忆搜索" during a run: the memories search_memories returned were put in front of the
     * model, so they count as accessed (001 access tracking) and are stored with the run (the inspector
     * and the chat's "memory used" show them). Only while the run is generating (pending).
     */
    recordToolMemories(runId: string, memoryIds: readonly string[]): { added: string[] } {
      const run = runs.mustFind(runId);
      if (run.status !== 'pending') {
        throw new EngineError('CONFLICT', `A tool result belongs to a run that is generating; this run (\`runId\`) is ${run.status}.`, { field: 'runId', status: run.status });
      }
      return deps.env.driver.transaction(() => {
        const added = deps.runToolMemories.append(runId, memoryIds);
        if (added.length > 0) deps.memory.markAccessed(added);
        return { added };
      });
    },
    sweep(): { timedOut: string[] } {
      return { timedOut: runs.sweep(deps.env.clock.now() - deps.tuning.pendingTtlMs) };
    },
  };
}

export type RunService = ReturnType<typeof createRunService>;
