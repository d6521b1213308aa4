import type { Services } from '../services';
import type { Handlers } from './index';

type LearningMethods =
  | 'episode.record'
  | 'episode.query'
  | 'episode.list'
  | 'episode.get'
  | 'episode.getMany'
  | 'writingMemory.get'
  | 'writingMemory.end'
  | 'writingMemory.sweep'
  | 'run.learning'
  | 'distill.status'
  | 'distill.begin'
  | 'distill.apply'
  | 'distill.fail'
  | 'rules.history'
  | 'rules.conflicts'
  | 'rules.resolveConflict';

/** Writing memory that learns (issue 17): episodes, the writing working memory, distillation, conflicts. */
export function learningHandlers(s: Services): Handlers<LearningMethods> {
  const c = s.context;
  return {
    'episode.record': (input) => c.episodes.record(input),
    'episode.query': (input) => c.episodes.query(input),
    'episode.list': (input) => c.episodes.list(input),
    'episode.get': ({ id }) => c.episodes.get(id),
    'episode.getMany': ({ ids }) => c.episodes.getMany(ids),
    'writingMemory.get': ({ documentId }) => c.episodes.workingMemory(documentId),
    'writingMemory.end': ({ documentId }) => c.episodes.end(documentId),
    'writingMemory.sweep': () => c.episodes.sweep(),
    'run.learning': ({ runId }) => c.episodes.runLearning(runId),
    'distill.status': () => c.distill.status(),
    'distill.begin': (input) => c.distill.begin(input),
    'distill.apply': (input) => c.distill.apply(input),
    'distill.fail': (input) => c.distill.fail(input),
    'rules.history': (input) => c.deps.learning.history.list(input),
    'rules.conflicts': ({ projectId }) => c.distill.conflicts.list(projectId),
    'rules.resolveConflict': (input) => c.distill.conflicts.resolve(input),
  };
}
