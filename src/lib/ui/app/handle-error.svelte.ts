import type { IpcError } from '../../domain/errors';
import { t, tDynamic } from '../i18n/i18n.svelte';

export interface Notice {
  id: number;
  kind: 'error' | 'info' | 'success';
  text: string;
  /** An optional action, e.g. undo. */
  action?: { label: string; run: () => void | Promise<void> };
}

/**
 * The one place that turns any failure into a visible, translated message (house style, after immich's
 * handle-error). Logs the code, never the user's text.
 */
class Notices {
  items = $state<Notice[]>([]);
  #next = 1;

  push(notice: Omit<Notice, 'id'>, ttlMs = 6000): number {
    const id = this.#next++;
    this.items = [...this.items, { ...notice, id }];
    if (ttlMs > 0) setTimeout(() => this.dismiss(id), ttlMs);
    return id;
  }

  dismiss(id: number): void {
    this.items = this.items.filter((n) => n.id !== id);
  }
}

export const notices = new Notices();

/**
 * Where a failure carries a fixed `details.reason`, its text is translated by that reason; the engine's
 * own message (English, for logs and the Node host) then stays out of a translated page. Model failures
 * use the same texts as the model settings' connection test.
 */
const REASON_KEYS: Partial<Record<string, (reason: string) => string>> = {
  DB_UNAVAILABLE: (reason) => `common:errors.reasons.${reason}`,
  MODEL_UNAVAILABLE: (reason) => `settings:model.reason.${reason}`,
  TIMEOUT: (reason) => `settings:model.reason.${reason}`,
};

type ShownError = IpcError | { code: string; message: string; details?: Record<string, unknown> };

export function errorText(error: ShownError): string {
  const reason = error.details?.reason;
  const key = typeof reason === 'string' ? REASON_KEYS[error.code]?.(reason) : undefined;
  const byReason = key ? tDynamic(key) : null;
  if (byReason !== null && byReason !== key) {
    // The CORS fix needs this page's own address (what OLLAMA_ORIGINS must allow).
    if (reason === 'cors') return `${byReason} ${t('settings:model.corsHint', { origin: typeof location === 'undefined' ? '' : location.origin })}`;
    return byReason;
  }
  return tDynamic(`common:errors.${error.code}`, { message: error.message });
}

export function handleError(error: unknown, context: string): void {
  const ipc = toIpcError(error);
  console.warn(`[engram] ${context} failed`, ipc.code);
  notices.push({ kind: 'error', text: errorText(ipc) }, 10_000);
}

function toIpcError(error: unknown): IpcError {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error)
    return error as IpcError;
  return { code: 'INTERNAL', message: '' };
}
