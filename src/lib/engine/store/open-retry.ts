/**
 * Opening the database file while another context still holds it. A closing tab (or the page this one
 * replaced) lets go of the OPFS access handles a moment after it dies; until then every open fails as
 * "busy". Busy is not absence: the file is there and will be ours, so we keep trying — for as long as
 * this worker lives — and say so once it takes long. Any other failure means OPFS cannot be used here
 * (e.g. a private window), which the caller answers with its in-memory fallback.
 *
 *   attempt ─▶ ok ─────────────────────────────────────────▶ value
 *          └─▶ busy ─▶ (past waitingAfterMs: onWaiting once) ─▶ sleep (growing, capped) ─▶ attempt …
 *          └─▶ other ─────────────────────────────────────────▶ unavailable (its message)
 */
export type OpenOutcome<T> = { kind: 'opened'; value: T; attempts: number } | { kind: 'unavailable'; reason: string; error: unknown };

export interface RetryOptions<T> {
  attempt: () => Promise<T>;
  isBusy: (message: string) => boolean;
  /** A failure that is never "busy", whatever its message says (a full disk: CANTOPEN, but for want of room). */
  isFatal?: (err: unknown) => boolean;
  /** After this long busy, `onWaiting` is told (once), so the user sees why nothing loads yet. */
  waitingAfterMs: number;
  onWaiting?: () => void;
  /** Pause before the n-th retry (0-based). */
  backoffMs?: (retry: number) => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** A closing tab lets go within a second or two; after that, a check every two seconds is plenty. */
export const openBackoffMs = (retry: number): number => Math.min(100 * 2 ** retry, 2000);

/** The errors sqlite-wasm's sahpool VFS and OPFS give while another context holds the files. */
export const BUSY_OPEN = /Access Handles|NoModificationAllowed|InvalidState|locked|CANTOPEN|unable to open/i;

export async function openWhileBusy<T>(opts: RetryOptions<T>): Promise<OpenOutcome<T>> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const backoff = opts.backoffMs ?? openBackoffMs;
  const started = now();
  let told = false;
  for (let retry = 0; ; retry++) {
    try {
      return { kind: 'opened', value: await opts.attempt(), attempts: retry + 1 };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (opts.isFatal?.(err) || !opts.isBusy(message)) return { kind: 'unavailable', reason: message, error: err };
      if (!told && now() - started >= opts.waitingAfterMs) {
        told = true;
        opts.onWaiting?.();
      }
      await sleep(backoff(retry));
    }
  }
}
