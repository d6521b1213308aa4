import type { FeedbackEvent, SampleRef } from '../context/types';
import type { EngineEnv } from '../env';

/**
 * Numbers issue 5's learner computed from an output at record time (the text itself is never stored here).
 * Since issue 17 an event's episode holds the style features and new events store `{}`.
 */
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
  signal: string | null;
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
  signal: (r.signal ?? null) as FeedbackEvent['signal'],
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
        `INSERT INTO feedback_events (id, run_id, skill_id, project_id, action, sample_refs, edit_distance, features, signal, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, input.runId, input.skillId, input.projectId, input.action, JSON.stringify(input.sampleRefs), input.editDistance, JSON.stringify(input.features), input.signal, now],
      );
      return { ...input, id, createdAt: now };
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
    deleteProject: (projectId: string) => driver.run('DELETE FROM feedback_events WHERE project_id = ?', [projectId]).changes,
  };
}

export type FeedbackRepo = ReturnType<typeof createFeedbackRepo>;
