/**
 * The episode calls (seed 003 memory:episode:record / query, plus list and get) and the writing working
 * memory's (get, end, sweep), over the repositories the context engine shares (context/deps.ts).
 */
import type { SceneType } from '../../domain/episodes/scene-type';
import { EngineError } from '../../domain/errors';
import type { ContextDeps } from '../context/deps';
import type { OutcomeRecorder, OutcomeInput } from './outcome';
import { recallEpisodes } from './recall';
import type { Episode, EpisodeKind, EpisodeQueryResult, EpisodeRecordResult, RunLearning, WritingMemoryView, WritingSessionEnd } from './types';
import type { SampleRef } from '../context/types';

export function createEpisodeService(deps: ContextDeps, outcomes: OutcomeRecorder) {
  return {
    record(input: OutcomeInput | { runId: string; undo: true; sampleRefs: SampleRef[] }): EpisodeRecordResult {
      return 'undo' in input ? outcomes.undo(input) : outcomes.record(input);
    },
    query(input: { projectId?: string | null; sceneType?: SceneType; text: string; limit: number }): EpisodeQueryResult {
      // The project check is recall's first read (with its walk plan): NOT_FOUND before anything is ranked.
      return recallEpisodes({ episodes: deps.episodes, clock: deps.env.clock, log: deps.env.log }, { ...input, projectField: 'projectId' });
    },
    list(input: { projectId?: string | null; sceneType?: SceneType; skillId?: string; kind?: EpisodeKind; documentId?: string; limit: number; offset: number }): { items: Episode[]; total: number } {
      return deps.episodes.list(input);
    },
    get: (id: string): Episode => deps.episodes.mustFind(id),
    getMany: (ids: readonly string[]): Episode[] => deps.episodes.getMany(ids),
    workingMemory(documentId: string): WritingMemoryView {
      deps.documents.mustFind(documentId, 'documentId');
      const view = deps.writing.get(documentId);
      if (!view) throw new EngineError('NOT_FOUND', 'That chapter (`documentId`) has no working memory now (no skill run in this session).', { field: 'documentId' });
      return view;
    },
    end: (documentId: string): WritingSessionEnd => deps.writing.end(documentId),
    sweep: (): WritingSessionEnd => deps.writing.sweep(),
    /** run.learning: what a skill run's context took from the writing memory (the inspector's card). */
    runLearning(runId: string): RunLearning {
      deps.runs.mustFind(runId);
      const row = deps.learning.runs.find(runId);
      if (!row) throw new EngineError('NOT_FOUND', 'That run (`runId`) did not use the writing memory (not a skill run on a chapter).', { field: 'runId' });
      return { runId, sceneType: row.sceneType, workingMemory: (row.workingMemory as WritingMemoryView | null) ?? null, episodes: row.episodes };
    },
  };
}

export type EpisodeService = ReturnType<typeof createEpisodeService>;
