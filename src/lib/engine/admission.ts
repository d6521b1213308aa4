/**
 * 003 Concurrency — "并发查询最大 32" and its scenario 并发查询背压: memory queries wait in one queue, at most
 * MAX_MEMORY_QUERIES at a time (running or waiting); one more is refused at once with MEMORY_BACKPRESSURE, so the
 * admitted ones finish in time instead of everyone waiting behind a pile-up.
 *
 *   query ─▶ queue full? ─ yes ─▶ MEMORY_BACKPRESSURE (now)
 *                       └─ no ─▶ wait for its turn (a macrotask: arrivals behind it are counted) ─▶ run
 *
 * The database answers one call at a time; the turn lets every query that has already arrived join the queue (and
 * be counted) before the first runs, which is what makes "how many are waiting" a real figure.
 */
export const MAX_MEMORY_QUERIES = 32;

export type Admitted<T> = { admitted: true; value: T } | { admitted: false; waiting: number };

export interface Admission {
  run<T>(fn: () => T | Promise<T>): Promise<Admitted<T>>;
  /** Queries running or waiting now. */
  readonly waiting: number;
}

/**
 * A macrotask turn (MessageChannel: no 4 ms timer clamp), in the order asked. A posted message queues behind the
 * messages (calls) that reached the worker before it, so a turn also lets the calls already waiting go first
 * (store/wal-keeper.ts's checkpoint task relies on that).
 */
export function macrotaskTurns(): () => Promise<void> {
  const waiters: (() => void)[] = [];
  let channel: MessageChannel | null = null;
  return () =>
    new Promise<void>((resolve) => {
      if (!channel) {
        channel = new MessageChannel();
        const port = channel.port1 as MessagePort & { ref?: () => void; unref?: () => void };
        port.onmessage = () => {
          waiters.shift()?.();
          // Node keeps a process alive while a port listens: only while a turn is owed (an unref'd
          // port with a turn pending let a CLI process exit before its query ran, printing nothing).
          if (waiters.length === 0) port.unref?.();
        };
      }
      waiters.push(resolve);
      (channel.port1 as { ref?: () => void }).ref?.();
      channel.port2.postMessage(null);
    });
}

export function createAdmission(limit: number = MAX_MEMORY_QUERIES, turn: () => Promise<void> = macrotaskTurns()): Admission {
  let waiting = 0;
  return {
    async run(fn) {
      if (waiting >= limit) return { admitted: false, waiting };
      waiting++;
      try {
        await turn();
        return { admitted: true, value: await fn() };
      } finally {
        waiting--;
      }
    },
    get waiting() {
      return waiting;
    },
  };
}
