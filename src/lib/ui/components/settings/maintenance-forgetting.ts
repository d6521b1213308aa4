import type { LifecyclePhase, LifecycleStatus } from '../../../engine/lifecycle/types';

/**
 * The memory clean-up's failure as Settings shows it (issue 19, 003 清理任务失败触发告警): the first phase
 * whose last run failed and has not succeeded since, with its message; null when all is well.
 */
export function cleanupFailure(status: Pick<LifecycleStatus, 'phases'> | null): { phase: LifecyclePhase; message: string } | null {
  if (!status) return null;
  for (const phase of ['decay', 'compress', 'purge'] as const) {
    const s = status.phases[phase];
    if (s.error !== null) return { phase, message: s.error };
  }
  return null;
}
