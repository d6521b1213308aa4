import { unwrap } from '../../domain/errors';
import type { JobDefinition } from './types';

/**
 * 002 SC-LTM-003 "系统执行定期摘要": storing a turn never summarises, so this pass makes the rolling
 * summaries that are due in every conversation (a context build makes its own conversation's first).
 */
export const rollingSummariesJob: JobDefinition = {
  name: 'rolling-summaries',
  periodMs: 60_000,
  onStartup: true,
  async run({ engine }) {
    const { created, sessions } = unwrap(await engine.call('summary.roll', {}));
    return { created: created.length, sessions };
  },
};
