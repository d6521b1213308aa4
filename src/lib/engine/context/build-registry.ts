/**
 * Context builds in flight, by the caller's request id (seed 004 "用户取消/超时": Stop must work while
 * the context is still being built, not only once the model streams).
 *
 *   context.build { requestId } ─▶ begin(requestId) ─▶ signal ─▶ every layer's loadLayer
 *   context.cancel { requestId } ─▶ abort ─▶ layers stop ─▶ build returns CANCELED, stores no run
 *
 * A cancel can overtake its build (the Stop button right after Send): the id is remembered for a while,
 * and a build that arrives with it is canceled at once.
 */
const EARLY_CANCELS_KEPT = 64;

export function createBuildRegistry() {
  const inflight = new Map<string, AbortController>();
  const early: string[] = [];

  return {
    begin(requestId: string | undefined): { signal: AbortSignal; end(): void } {
      const controller = new AbortController();
      if (requestId === undefined) return { signal: controller.signal, end: () => {} };
      if (early.includes(requestId)) {
        early.splice(early.indexOf(requestId), 1);
        controller.abort();
      }
      inflight.set(requestId, controller);
      return { signal: controller.signal, end: () => void inflight.delete(requestId) };
    },
    /** True when a build with that id was running and is now told to stop. */
    cancel(requestId: string): { canceled: boolean } {
      const controller = inflight.get(requestId);
      if (controller) {
        controller.abort();
        return { canceled: true };
      }
      early.push(requestId);
      if (early.length > EARLY_CANCELS_KEPT) early.shift();
      return { canceled: false };
    },
  };
}

export type BuildRegistry = ReturnType<typeof createBuildRegistry>;

/**
 * Gives the worker's event loop a turn, so a cancel message that arrived meanwhile is handled before
 * the next (synchronous, SQLite) source runs.
 */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
