/**
 * 003 "AI 技能执行后自动记录情景": what the user did with a skill run's output becomes an episode — one per
 * run — and the 004 audit event, in the same transaction. Only records: learning happens later, in the
 * jobs worker's distillation; this says whether one is due.
 *
 *   outcome { candidates, selectedIndex, finalText, explicit } ─▶ signal + edit distance (signals.ts)
 *     ─▶ episode (scene type and passage from the run's learning row, features of every text)
 *     ─▶ feedback_events (accept | partial | reject, with the signal)
 *     ─▶ working memory: the output and its fate
 *     ─▶ due? 50 new episodes → batch · a strong vote against a rule → conflict
 *   undo { runId } ─▶ the same episode, signal → delayed-negative (weight 1.0); the choice and the kept
 *                     text stay: the acceptance is not erased, the episode ends negative
 */
import { styleFeatures, type StyleFeatures } from '../../domain/episodes/features';
import { classifyScene } from '../../domain/episodes/scene-type';
import { classifyOutcome, feedbackActionOf, importanceOf, valenceOf, type ImplicitSignal } from '../../domain/episodes/signals';
import { summarizePassage } from '../../domain/episodes/summary';
import { EngineError } from '../../domain/errors';
import { claimsOfText } from '../../domain/semantic/claims';
import { parsePattern } from '../../domain/semantic/distill';
import { episodeVotes, type EpisodeFeatures } from '../../domain/semantic/votes';
import type { ContextDeps } from '../context/deps';
import type { SampleRef } from '../context/types';
import type { RunRecord } from '../context/types';
import { keptText } from '../store/episode-repo';
import type { Episode, EpisodeRecordResult } from './types';

/** 003 批量触发: "累积 50 个新情景后". */
export const BATCH_EPISODES = 50;
export const DISTILL_REQUEST_KEY = 'distill.requested';
/** A vote at least this strong against a rule's pole asks for a distillation (003 冲突触发). */
const CONFLICT_VOTE = 0.8;

export interface OutcomeInput {
  runId?: string;
  skillId?: string;
  projectId?: string;
  documentId?: string;
  /** The passage the skill ran on, when the run has no learning row (or there is no run). */
  input?: string;
  candidates: string[];
  selectedIndex: number;
  finalText?: string;
  explicit?: string;
  sampleRefs: SampleRef[];
  /** feedback.record without texts: the signal its action (and distance) says, instead of classifying texts. */
  signal?: { signal: ImplicitSignal; editDistance: number | null };
}

/** Feedback needs a result: the same codes feedback.record has always answered (004 "用户取消/超时"). */
export function completedRun(deps: ContextDeps, runId: string): RunRecord {
  const run = deps.runs.mustFind(runId);
  if (run.status === 'canceled') throw new EngineError('CANCELED', 'That run (`runId`) was canceled; there is no result to give feedback on.', { field: 'runId', status: run.status });
  if (run.status === 'timeout') throw new EngineError('TIMEOUT', 'That run (`runId`) timed out; there is no result to give feedback on.', { field: 'runId', status: run.status });
  if (run.status !== 'completed') throw new EngineError('CONFLICT', `Feedback needs a completed run; this run (\`runId\`) is ${run.status}.`, { field: 'runId', status: run.status });
  return run;
}

export function createOutcomeRecorder(deps: ContextDeps) {
  const { episodes, learning, env } = deps;
  const paused = () => !deps.settings.get()['preferences.learning'];

  /** What would start a distillation now (none while learning is paused). */
  function due(isPaused = paused()): 'batch' | 'conflict' | null {
    if (isPaused) return null;
    if (env.driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [DISTILL_REQUEST_KEY])?.value === 'conflict') return 'conflict';
    const last = learning.distill.last('done');
    return episodes.countAfter(last?.watermark ?? 0, BATCH_EPISODES) >= BATCH_EPISODES ? 'batch' : null;
  }

  /** 003 冲突触发: the episode votes strongly against the pole of an active rule in its scope. */
  function contradictsRule(e: Episode, features: EpisodeFeatures): boolean {
    const votes = episodeVotes({
      id: e.id, kind: e.kind, projectId: e.projectId, skillId: e.skillUsed, sceneType: e.sceneType, signal: e.implicit, valence: e.valence,
      selectedIndex: e.selectedIndex, replaces: deps.skills.get(e.skillUsed).replacesInput, features, negated: [], uses: e.uses, createdAt: e.createdAt,
    }).filter((v) => v.weight >= CONFLICT_VOTE);
    if (votes.length === 0) return false;
    for (const rule of deps.rules.activeFor(e.projectId)) {
      for (const b of rule.basis) {
        const p = parsePattern(b.pattern);
        if (!p || (p.group.scene !== null && p.group.scene !== e.sceneType) || (p.group.skill !== null && p.group.skill !== e.skillUsed)) continue;
        if (votes.some((v) => v.hypothesis === p.hypothesis && v.pole !== b.pole)) return true;
      }
    }
    return false;
  }

  function finish(e: Episode, features: EpisodeFeatures, eventId: string | null): EpisodeRecordResult {
    if (contradictsRule(e, features)) {
      env.driver.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [DISTILL_REQUEST_KEY, 'conflict']);
    }
    if (e.chapterId) deps.writing.onOutcome({ documentId: e.chapterId, runId: e.runId ?? e.id, skillId: e.skillUsed, signal: e.implicit, kept: keptText(e) });
    // The settings are read (and validated) once per record, not once for each answer.
    const learningPaused = paused();
    return { episode: e, feedbackEventId: eventId, distillDue: due(learningPaused), learningPaused };
  }

  function event(run: RunRecord, signal: ImplicitSignal, sampleRefs: SampleRef[], editDistance: number | null): string {
    return deps.feedback.insert({
      runId: run.id,
      skillId: run.skillId,
      projectId: run.projectId,
      action: feedbackActionOf(signal),
      sampleRefs,
      editDistance,
      features: {},
      signal,
    }).id;
  }

  return {
    due,
    record(input: OutcomeInput): EpisodeRecordResult {
      const run = input.runId ? completedRun(deps, input.runId) : null;
      if (run && run.kind !== 'skill') throw new EngineError('INVALID_ARGUMENT', 'Invalid `runId`: episodes are recorded for skill runs, not chat turns', { fields: ['runId'] });
      const skillId = run?.skillId ?? input.skillId;
      if (!skillId) throw new EngineError('INVALID_ARGUMENT', 'Invalid `skillId`: an episode without a run names its skill', { fields: ['skillId'] });
      const skill = deps.skills.get(skillId);
      const projectId = run ? run.projectId : (input.projectId ?? null);
      if (!run && projectId) deps.projects.mustFind(projectId, 'projectId');
      const documentId = run ? run.documentId : (input.documentId ?? null);
      if (!run && documentId) {
        // The chapter's project only: its text is not needed here (a whole chapter was read on every record).
        const docProject = deps.documents.mustFindProject(documentId, 'documentId');
        if (projectId && docProject !== projectId) throw new EngineError('INVALID_ARGUMENT', 'Invalid `documentId`: the chapter belongs to another project', { fields: ['documentId'] });
      }
      if (input.signal === undefined && input.selectedIndex >= input.candidates.length) {
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `selectedIndex`: it must name one of the candidates, or be -1 (all rejected)', { fields: ['selectedIndex'] });
      }
      const row = run ? learning.runs.find(run.id) : undefined;
      const passage = input.input ?? '';
      const sceneType = row?.sceneType ?? classifyScene(passage || (input.candidates[Math.max(0, input.selectedIndex)] ?? '')).sceneType;
      const inputFeatures: StyleFeatures | null = row?.inputFeatures ?? (passage ? styleFeatures(passage) : null);
      const { signal, editDistance } = input.signal ?? classifyOutcome(input);
      const chosen = input.candidates[input.selectedIndex];
      const explicit = input.explicit?.trim() || null;
      const stated = explicit ? claimsOfText(explicit).map((c) => ({ dimension: c.dimension, pole: c.pole })) : [];
      const features: EpisodeFeatures = {
        ...(inputFeatures ? { input: inputFeatures } : {}),
        candidates: input.candidates.map(styleFeatures),
        ...(input.finalText !== undefined && chosen !== undefined && input.finalText !== chosen ? { final: styleFeatures(input.finalText) } : {}),
        ...(stated.length ? { stated } : {}),
      };
      const user = {
        selectedIndex: input.selectedIndex,
        finalText: input.selectedIndex >= 0 ? (input.finalText ?? chosen ?? null) : null,
        explicit,
        implicit: signal,
        valence: valenceOf(signal),
        editDistance,
        features,
        importance: importanceOf(signal, { explicit }),
      };
      const existing = run ? episodes.byRun(run.id) : undefined;
      if (existing?.undoneAt) throw new EngineError('CONFLICT', 'That run’s output was undone; its episode is final.', { field: 'runId' });
      const episode = existing
        ? episodes.patch(existing.id, { ...user, candidates: input.candidates })
        : episodes.insert({
            kind: 'skill-run',
            runId: run?.id ?? null,
            skillId: skill.id,
            projectId,
            documentId,
            sceneType,
            inputSummary: row?.inputSummary ?? summarizePassage(passage),
            candidates: input.candidates,
            ...user,
          });
      return finish(episode, features, run ? event(run, signal, input.sampleRefs, editDistance) : null);
    },

    /** 003 "用户撤销 AI 输出——延迟负反馈". Sending it twice changes nothing the second time. */
    undo(input: { runId: string; sampleRefs: SampleRef[] }): EpisodeRecordResult {
      const run = completedRun(deps, input.runId);
      const e = episodes.byRun(run.id);
      if (!e) throw new EngineError('NOT_FOUND', 'No episode for that `runId`: record what was accepted before undoing it.', { field: 'runId' });
      if (e.undoneAt !== null) return { episode: e, feedbackEventId: null, distillDue: due(), learningPaused: paused() };
      if (e.selectedIndex < 0) throw new EngineError('CONFLICT', 'Nothing of that run (`runId`) was accepted, so there is nothing to undo.', { field: 'runId' });
      const undone = episodes.patch(e.id, {
        firstSignal: e.implicit,
        implicit: 'delayed-negative',
        valence: valenceOf('delayed-negative'),
        importance: importanceOf('delayed-negative', { explicit: e.explicit }),
        undoneAt: env.clock.now(),
      });
      const features = (env.driver.get<{ features: string }>('SELECT features FROM episodes WHERE id = ?', [e.id])?.features ?? '{"candidates":[]}');
      return finish(undone, { candidates: [], ...(JSON.parse(features) as Partial<EpisodeFeatures>) }, event(run, 'delayed-negative', input.sampleRefs, e.editDistance));
    },
  };
}

export type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>;
