import type { IpcError } from '../../domain/errors';
import { tDynamic } from '../i18n/i18n.svelte';

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

export function errorText(error: IpcError | { code: string; message: string }): string {
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
