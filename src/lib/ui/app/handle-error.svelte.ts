import type { IpcError } from '../../domain/errors';
import { t, tDynamic } from '../i18n/i18n.svelte';
import { modelSettings } from './model-settings.svelte';

export interface Notice {
  id: number;
  kind: 'error' | 'info' | 'success';
  text: string;
  /** An optional action, e.g. undo. */
  action?: { label: string; run: () => void | Promise<void> };
  /** Stays until dismissed, like an error (e.g. "a new version is ready"). */
  sticky?: boolean;
  testid?: string;
}

/**
 * The one place that turns any failure into a visible, translated message (house style, after immich's
 * handle-error). Logs the code, never the user's text.
 *
 * Issue 15: one notice shows at a time (the newest, with how many wait behind it), in a corner away from
 * the composer; an error or a sticky notice stays until dismissed, a confirmation fades. Each is also
 * read out once through a live region.
 */
class Notices {
  items = $state<Notice[]>([]);
  /** What the live region reads out: the latest notice, polite or (errors) assertive. */
  announced = $state<{ polite: string; assertive: string }>({ polite: '', assertive: '' });
  #next = 1;
  /** How long each fading notice stays once it is on show (a notice waiting behind another has not been seen yet). */
  #ttl = new Map<number, number>();
  /** The notice whose fade is running, and its timer: a newer notice pauses it until it is on show again. */
  #armed: { id: number; ttl: number; timer: ReturnType<typeof setTimeout> } | null = null;

  push(notice: Omit<Notice, 'id'>, ttlMs = 6000): number {
    const id = this.#next++;
    if (ttlMs > 0 && notice.kind !== 'error' && !notice.sticky) this.#ttl.set(id, ttlMs);
    this.items = [...this.items, { ...notice, id }];
    this.announced = notice.kind === 'error' ? { polite: '', assertive: notice.text } : { polite: notice.text, assertive: '' };
    this.#arm();
    return id;
  }

  /** The notice on show: the newest. */
  get current(): Notice | null {
    return this.items.at(-1) ?? null;
  }

  dismiss(id: number): void {
    this.#ttl.delete(id);
    this.items = this.items.filter((n) => n.id !== id);
    this.#arm();
  }

  dismissAll(): void {
    if (this.#armed) clearTimeout(this.#armed.timer);
    this.#armed = null;
    this.#ttl.clear();
    this.items = [];
  }

  /**
   * Starts the fade of the notice on show; a notice pushed in front of a fading one stops that one's fade,
   * which starts again, whole, when it comes forward — so no notice fades unseen behind another.
   */
  #arm(): void {
    const shown = this.current;
    if (this.#armed && this.#armed.id === shown?.id) return;
    if (this.#armed) {
      clearTimeout(this.#armed.timer);
      if (this.items.some((n) => n.id === this.#armed?.id)) this.#ttl.set(this.#armed.id, this.#armed.ttl);
      this.#armed = null;
    }
    if (!shown) return;
    const ttl = this.#ttl.get(shown.id);
    if (ttl === undefined) return;
    this.#ttl.delete(shown.id);
    this.#armed = { id: shown.id, ttl, timer: setTimeout(() => this.dismiss(shown.id), ttl) };
  }
}

export const notices = new Notices();

/**
 * Where a failure carries a fixed `details.reason`, its text is translated by that reason; the engine's
 * own message (English, for logs and the Node host) then stays out of a translated page. A model
 * failure names the model and server in force (the settings on this device), never the key.
 */
const REASON_KEYS: Partial<Record<string, (reason: string) => string>> = {
  DB_UNAVAILABLE: (reason) => `common:errors.reasons.${reason}`,
  MODEL_UNAVAILABLE: (reason) => `common:errors.model.${reason}`,
  TIMEOUT: (reason) => `common:errors.model.${reason}`,
  QUOTA_EXCEEDED: (reason) => `storage:quota.${reason}`,
};

type ShownError = IpcError | { code: string; message: string; details?: Record<string, unknown> };

function modelVars(): Record<string, string> {
  const { model, baseUrl } = modelSettings.current;
  let origin = baseUrl;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    /* not a URL yet: shown as typed */
  }
  return { model, origin };
}

export function errorText(error: ShownError): string {
  const reason = error.details?.reason;
  const key = typeof reason === 'string' ? REASON_KEYS[error.code]?.(reason) : undefined;
  const byReason = key ? tDynamic(key, error.code === 'MODEL_UNAVAILABLE' || error.code === 'TIMEOUT' ? modelVars() : {}) : null;
  if (byReason !== null && byReason !== key) {
    // The CORS fix needs this page's own address (what OLLAMA_ORIGINS must allow).
    if (reason === 'cors') return `${byReason} ${t('settings:model.corsHint', { origin: typeof location === 'undefined' ? '' : location.origin })}`;
    return byReason;
  }
  return tDynamic(`common:errors.${error.code}`, { message: error.message });
}

/** What a person can do about a failure, as the notice's button: a full disk leads to the storage page. */
function actionFor(error: ShownError): Notice['action'] {
  if (error.code !== 'QUOTA_EXCEEDED') return undefined;
  return { label: t('storage:openStorage'), run: async () => (await import('$app/navigation')).goto('/settings#storage') };
}

export function handleError(error: unknown, context: string): void {
  const ipc = toIpcError(error);
  console.warn(`[engram] ${context} failed`, ipc.code);
  const action = actionFor(ipc);
  notices.push({ kind: 'error', text: errorText(ipc), ...(action ? { action } : {}) }, 10_000);
}

function toIpcError(error: unknown): IpcError {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error)
    return error as IpcError;
  return { code: 'INTERNAL', message: '' };
}
