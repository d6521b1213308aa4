/**
 * One request's abort switch. Two things can stop a request and they must stay distinguishable:
 * the user's signal (→ CANCELED) and silence longer than timeoutMs (→ TIMEOUT). The timer measures
 * silence, not total time: a stream that keeps sending chunks calls kick() and may run as long as it talks.
 */
export type StopCause = 'canceled' | 'timeout';

export interface RequestControl {
  readonly signal: AbortSignal;
  /** Restart the silence timer (a chunk arrived). */
  kick(): void;
  /** Why the request was stopped, or null if it was not. */
  stopped(): StopCause | null;
  /** Stop the request (e.g. the consumer left a stream early); later causes are ignored. */
  abort(): void;
  /** Clear the timer and the listener. Idempotent. */
  dispose(): void;
}

export function createRequestControl(opts: { signal?: AbortSignal; timeoutMs: number }): RequestControl {
  const controller = new AbortController();
  let cause: StopCause | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const stop = (why: StopCause) => {
    if (cause !== null || controller.signal.aborted) return;
    cause = why;
    clearTimeout(timer);
    controller.abort(new Error(why === 'timeout' ? 'model request timed out' : 'model request canceled'));
  };
  const onUserAbort = () => stop('canceled');
  const arm = () => {
    clearTimeout(timer);
    if (!disposed && !controller.signal.aborted) timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
  };

  if (opts.signal?.aborted) stop('canceled');
  else opts.signal?.addEventListener('abort', onUserAbort, { once: true });
  arm();

  return {
    signal: controller.signal,
    kick: arm,
    stopped: () => cause,
    abort: () => {
      clearTimeout(timer);
      if (!controller.signal.aborted) controller.abort(new Error('model request finished'));
    },
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onUserAbort);
    },
  };
}
