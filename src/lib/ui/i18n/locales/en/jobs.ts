/** Background jobs: their names, triggers, outcomes and the step keys a job reports ('jobs.step.x' → 'jobs:step.x'). */
export const jobs = {
  name: {
    embeddings: 'Meaning-based recall: embedding turns and memories',
    maintenance: 'Database maintenance',
    lifecycle: 'Memory clean-up: decay, compression, purge',
    'import-follow-up': 'Learning from imported conversations',
  },
  step: {
    embeddings: 'Embedding turns and memories',
    start: 'Starting…',
    optimize: 'Optimizing the database',
    'fts-merge': 'Merging the search index',
    integrity: 'Checking integrity',
    done: 'Done',
    failed: 'Failed',
    'lifecycle-decay': 'Recomputing how memories fade',
    'lifecycle-compress': 'Compressing faded episodes',
    'lifecycle-purge': 'Deleting expired memories',
    'import-follow-up': 'Learning from imported conversations',
  },
  trigger: {
    idle: 'While idle',
    periodic: 'Scheduled',
    demand: 'By you',
    startup: 'At startup',
  },
  status: {
    ok: 'OK',
    failed: 'Failed',
  },
} as const;
