import { unwrap } from '../../domain/errors';
import type { JobDefinition } from '../jobs/types';

/**
 * Seed 004 "pending 状态被清理（不挂起）": runs still pending after 10 minutes become `timeout`. A sweep
 * that finds none changes nothing and is not recorded.
 */
export const runSweepJob: JobDefinition = {
  name: 'context-run-sweep',
  periodMs: 60_000,
  async run({ engine }) {
    const res = unwrap(await engine.call('run.sweep', {}));
    return res.timedOut.length === 0 ? null : { timedOut: res.timedOut.length };
  },
};
