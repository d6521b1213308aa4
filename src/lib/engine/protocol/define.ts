import type { z } from 'zod';
import type { ErrorCode } from '../../domain/errors';

/**
 * Codes any call may return, besides those it declares. QUOTA_EXCEEDED: any call that writes (a person's
 * save, the app's bookkeeping, a read that records access) can meet a full disk.
 */
export const COMMON_ERRORS = ['INVALID_ARGUMENT', 'INTERNAL', 'DB_UNAVAILABLE', 'QUOTA_EXCEEDED'] as const satisfies readonly ErrorCode[];

export interface CallSpec<I extends z.ZodType = z.ZodType, O = unknown, E extends ErrorCode = ErrorCode> {
  /** Validates what the caller sends; unknown fields are rejected (strict objects). */
  readonly input: I;
  /** The codes this call may return besides COMMON_ERRORS. */
  readonly errors: readonly E[];
  /** Writes run in one transaction, are idempotent by op id, and announce a change to other tabs. */
  readonly write: boolean;
  /**
   * Bookkeeping the app does on its own (sweeps, job records, maintenance), never a person's save: it
   * does not prompt for persistent storage, and it carries no op id (running it twice is harmless) — so
   * a sweep with nothing to sweep writes nothing at all and, changing no row, announces nothing.
   */
  readonly background: boolean;
  /**
   * A memory query (003 并发查询背压): at most MAX_MEMORY_QUERIES of them run or wait at once; one more is
   * answered MEMORY_BACKPRESSURE at once (engine/admission.ts).
   */
  readonly memoryQuery: boolean;
  /**
   * A write in two steps (issue 16, one call per turn): its handler returns a `TwoStep` — `write()` runs as the
   * write (one transaction, op id, change event) and `then(written)` completes the answer after it, outside the
   * transaction (e.g. a context build, which yields between its sources so that it can be canceled).
   */
  readonly twoStep: boolean;
  /** Phantom: the success type. Never set at run time. */
  readonly output?: O;
}

/** `call<Output>()({ input, errors, write })`: the output type is named, the rest inferred. */
export function call<O>() {
  return <I extends z.ZodType, const E extends readonly ErrorCode[] = []>(spec: {
    input: I;
    errors?: E;
    write?: boolean;
    background?: boolean;
    memoryQuery?: boolean;
    twoStep?: boolean;
  }): CallSpec<I, O, E[number]> => ({
    input: spec.input,
    errors: spec.errors ?? [],
    write: spec.write ?? false,
    background: spec.background ?? false,
    memoryQuery: spec.memoryQuery ?? false,
    twoStep: spec.twoStep ?? false,
  });
}

/** What the handler of a `twoStep` call returns. `written` is null when the op id was applied before. */
export interface TwoStep<W, O> {
  write(): W;
  then(written: W | null): Promise<O>;
  /** `then` writes too (in transactions of its own): announce a change again when it is done. */
  announceAfter?: boolean;
  /**
   * `write()` commits without syncing the WAL (synchronous=NORMAL, store/driver.ts `resumableTransaction`), and
   * `then` makes it durable before it answers — its own COMMIT at FULL syncs the WAL and every frame before it, or
   * `syncCommitted` does (issue 16 item 2: a turn paid two flushes, one for the message and one for its run). Until
   * then only a power cut or an OS crash could lose the write, and nobody has been answered yet.
   */
  syncInThen?: boolean;
}

/** An object of entries where a thunk stands for the value it returns (see `lazyEntries`). */
export type LazyEntries<T> = { readonly [K in keyof T]: T[K] extends () => infer R ? R : T[K] };

/**
 * The same keys, each thunk run on the first read of its key and its value kept from then on (issue 16, cold start:
 * the contract's 130 calls' zod schemas were all built at module load). Keys stay enumerable and own (`Object.keys`,
 * `Object.hasOwn`); a value that is not a function is kept as it is.
 */
export function lazyEntries<T extends Record<string, CallSpec | (() => CallSpec)>>(entries: T): LazyEntries<T> & { readonly [K in keyof T]: CallSpec } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value !== 'function') {
      out[key] = value;
      continue;
    }
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get() {
        const built: unknown = (value as () => unknown)();
        Object.defineProperty(out, key, { value: built, enumerable: true, configurable: false, writable: false });
        return built;
      },
    });
  }
  // The second half keeps `Contract[M]['input']` usable for a generic M (a conditional type alone stays deferred).
  return out as LazyEntries<T> & { readonly [K in keyof T]: CallSpec };
}
