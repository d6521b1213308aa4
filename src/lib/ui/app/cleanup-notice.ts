import type { LifecyclePhase } from '../../engine/lifecycle/types';
import { t, tDynamic } from '../i18n/i18n.svelte';
import { notices } from './handle-error.svelte';

/** A failed memory clean-up (issue 19) as a notice in the corner, naming the phase; Settings shows the detail. */
export function notifyCleanupFailure(error: string | undefined): void {
  const phase = failedPhase(error);
  const message = phase ? tDynamic(`jobs:step.lifecycle-${phase}`) : (error ?? '');
  notices.push({ kind: 'error', text: t('common:errors.MEMORY_CLEANUP_FAILED', { message }) }, 10_000);
}

/** The phase a failed lifecycle job names in its error ("… clean-up (compress) failed …"), for the notice. */
export function failedPhase(error: string | undefined): LifecyclePhase | null {
  const m = /\((decay|compress|purge)\)/.exec(error ?? '');
  return m ? (m[1] as LifecyclePhase) : null;
}
