import type { SqlDriver } from './driver';

/**
 * A driver whose connection can be replaced under the engine: the read-only copy a full disk forced at
 * start-up gives way to the real database once there is room (host/open-engine.ts). The engine and its
 * services only ever hold this object, so they carry on with the new connection on their next call.
 * Calls are synchronous, so a switch (between two calls) never lands inside a transaction.
 */
export interface SwitchableDriver extends SqlDriver {
  /** Uses `next` from now on; returns the previous connection (the caller closes it). */
  switchTo(next: SqlDriver): SqlDriver;
}

export function createSwitchableDriver(initial: SqlDriver): SwitchableDriver {
  let current = initial;
  return {
    get kind() {
      return current.kind;
    },
    exec: (sql) => current.exec(sql),
    run: (sql, params) => current.run(sql, params),
    all: (sql, params) => current.all(sql, params),
    get: (sql, params) => current.get(sql, params),
    transaction: (fn) => current.transaction(fn),
    close: () => current.close(),
    switchTo(next) {
      const previous = current;
      current = next;
      return previous;
    },
  };
}
