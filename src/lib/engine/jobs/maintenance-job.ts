import { unwrap } from '../../domain/errors';
import type { JobDefinition } from './types';

/** PRAGMA optimize, an incremental FTS merge and an integrity check; the result shows in settings. */
export const maintenanceJob: JobDefinition = {
  name: 'maintenance',
  periodMs: 6 * 3_600_000,
  onIdle: true,
  async run({ engine, progress }) {
    progress(0.1, 'jobs.step.optimize');
    const optimize = unwrap(await engine.call('maintenance.optimize', {}));
    progress(0.4, 'jobs.step.fts-merge');
    const merge = unwrap(await engine.call('maintenance.ftsMerge', {}));
    progress(0.7, 'jobs.step.integrity');
    const integrity = unwrap(await engine.call('maintenance.integrityCheck', {}));
    if (!integrity.ok) throw new Error(`integrity check found ${integrity.problems.length} problem(s)`);
    return {
      optimizeMs: Math.round(optimize.ms),
      ftsTables: merge.tables.length,
      ftsMergeMs: Math.round(merge.ms),
      integrity: 'ok',
      integrityMs: Math.round(integrity.ms),
    };
  },
};
