// Test helpers for the host's tests: the Web Locks API (not in Node), the order of a cold start.
import type { openWasmDatabase } from '../store/open-wasm';

/** A LockManager good enough for one process: FIFO exclusive locks released when the callback settles. */
export function fakeLocks(): LockManager & { drop(name: string): void } {
  const queues = new Map<string, (() => void)[]>();
  const holders = new Map<string, symbol>();
  const next = (name: string) => {
    const q = queues.get(name) ?? [];
    const grant = q.shift();
    if (grant) grant();
  };
  return {
    /** The browser lets go of a closing tab's lock while its worker may still run (the holder is not told). */
    drop(name: string) {
      holders.delete(name);
      next(name);
    },
    request: ((name: string, _opts: unknown, cb: (lock: unknown) => Promise<unknown>) =>
      new Promise((resolve, reject) => {
        const run = () => {
          const token = Symbol(name);
          holders.set(name, token);
          Promise.resolve(cb({ name, mode: 'exclusive' }))
            .then(resolve as (v: unknown) => void, reject)
            .finally(() => {
              if (holders.get(name) !== token) return; // dropped already
              holders.delete(name);
              next(name);
            });
        };
        if (!holders.has(name)) run();
        else queues.set(name, [...(queues.get(name) ?? []), run]);
      })) as LockManager['request'],
    query: async () => ({ held: [], pending: [] }),
  };
}

/** openWasmDatabase noting, in `events`, when an opening starts and when its database is open (cold-start order tests). */
export function notedOpening(open: typeof openWasmDatabase, events: string[]): typeof openWasmDatabase {
  return (opts) => {
    events.push('open started');
    return open(opts).then((opened) => {
      events.push('database open');
      return opened;
    });
  };
}
