import type { FeedbackEvent, SampleRef } from '../context/types';
import type { EngineEnv } from '../env';

/** Numbers computed from the output at record time; the text itself is never stored here. */
export interface FeedbackFeatures {
  /** Output length / input length (code points), when both are known. */
  lengthRatio?: number;
  /** The output (what was kept, or what was rejected) contains `!` or `！`. */
  exclamation?: boolean;
  /** Average sentence length of the output, in code points. */
  sentenceLength?: number;
}

interface EventRow {
  id: string;
  run_id: string;
  skill_id: string;
  project_id: string | null;
  action: FeedbackEvent['action'];
  sample_refs: string;
  edit_distance: number | null;
  features: string;
  created_at: number;
}

export type StoredFeedback = FeedbackEvent & { features: FeedbackFeatures };

const toEvent = (r: EventRow): StoredFeedback => ({
  id: r.id,
  runId: r.run_id,
  skillId: r.skill_id,
  projectId: r.project_id,
  action: r.action,
  sampleRefs: JSON.parse(r.sample_refs) as SampleRef[],
  editDistance: r.edit_distance,
  createdAt: r.created_at,
  features: JSON.parse(r.features) as FeedbackFeatures,
});

/** 004 feedback events: an auditable record of accept / reject / partial. */
export function createFeedbackRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  return {
    insert(input: Omit<StoredFeedback, 'id' | 'createdAt'>): StoredFeedback {
      const id = ids();
      const now = clock.now();
      driver.run(
        `INSERT INTO feedback_events (id, run_id, skill_id, project_id, action, sample_refs, edit_distance, features, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, input.runId, input.skillId, input.projectId, input.action, JSON.stringify(input.sampleRefs), input.editDistance, JSON.stringify(input.features), now],
      );
      return { ...input, id, createdAt: now };
    },
    /** The events one learner looks at: same skill, same project (or none), newest `limit`, oldest first. */
    forLearning(skillId: string, projectId: string | null, limit: number): StoredFeedback[] {
      return driver
        .all<EventRow>(
          `SELECT * FROM (SELECT * FROM feedback_events WHERE skill_id = ? AND COALESCE(project_id, '') = ? ORDER BY rid DESC LIMIT ?) ORDER BY rid`,
          [skillId, projectId ?? '', limit],
        )
        .map(toEvent);
    },
    list(opts: { runId?: string; skillId?: string; limit: number }): FeedbackEvent[] {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (opts.runId) (where.push('run_id = ?'), params.push(opts.runId));
      if (opts.skillId) (where.push('skill_id = ?'), params.push(opts.skillId));
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      return driver
        .all<EventRow>(`SELECT * FROM feedback_events ${clause} ORDER BY rid DESC LIMIT ?`, [...params, opts.limit])
        .map(toEvent)
        .map(({ features: _features, ...event }) => event);
    },
  };
}

export type FeedbackRepo = ReturnType<typeof createFeedbackRepo>;
