/**
 * i18n keys for the codes a run record carries: layer status, the reason a layer is how it is
 * (`LayerResult.reason`, possibly several joined by commas, e.g. L4's `missing,timeout`) and why an item
 * was cut. Unknown codes have no key: the page shows the code itself rather than hide it.
 */
import type { CutRecord, LayerStatus } from '../../../domain/context';

const CUT_REASONS: readonly CutRecord['reason'][] = ['over-budget', 'trimmed', 'masked', 'not-requested'];
const STATUSES: readonly LayerStatus[] = ['ok', 'empty', 'missing', 'timeout', 'canceled', 'degraded'];
/** Codes the context engine writes into `LayerResult.reason` (context-service, 01 doc) and engine error codes. */
const REASONS = [
  'disabled',
  'no-project',
  'not-requested',
  'missing',
  'timeout',
  'canceled',
  'DB_UNAVAILABLE',
  'TIMEOUT',
  'CANCELED',
  'NOT_FOUND',
  'INTERNAL',
  'QUOTA_EXCEEDED',
  'INVALID_ARGUMENT',
] as const;

export function cutReasonKey(reason: string): string | null {
  return (CUT_REASONS as readonly string[]).includes(reason) ? `inspect:cut.${reason}` : null;
}

export function statusKey(status: string): string | null {
  return (STATUSES as readonly string[]).includes(status) ? `inspect:status.${status}` : null;
}

export function reasonKeys(reason: string | undefined): { code: string; key: string | null }[] {
  if (!reason) return [];
  return reason
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .map((code) => ({ code, key: (REASONS as readonly string[]).includes(code) ? `inspect:reason.${code}` : null }));
}
