/**
 * Loading one layer's source with a deadline and the run's cancel signal, turning every outcome into
 * a LayerInput (seed 004: "任意层缺失/失败 MUST 可判定 … 不得 silent failure"). It never throws for
 * a slow, canceled or failing source: the layer renders its fixed marker, the inspector shows the
 * reason code, and the logger gets the event (codes only, never content).
 *
 *   load() ──ok──────────────▶ { status: 'ok' | 'empty', items }
 *          ──> timeoutMs ────▶ { status: 'timeout', reason: 'TIMEOUT' }
 *          ──signal aborted──▶ { status: 'canceled', reason: 'CANCELED' }
 *          ──throws──────────▶ { status: 'missing', reason: <EngineError code> | 'INTERNAL' }
 *
 * The deadline holds for sources that cannot be interrupted too: a synchronous read (SQLite in the
 * worker) that returns after `timeoutMs` is a timeout like a promise that never settles — its result
 * is not used — so a layer's status says the same thing whatever kind of source it has.
 */
import { EngineError } from '../errors';
import type { Logger } from '../log';
import type { ContextItem, LayerId, LayerInput } from './types';

export async function loadLayer(opts: {
  id: LayerId;
  load: (signal: AbortSignal) => Promise<ContextItem[]>;
  timeoutMs: number;
  signal?: AbortSignal;
  logger?: Logger;
  /** Milliseconds, for the elapsed-time check (default: performance.now). */
  now?: () => number;
}): Promise<LayerInput> {
  const { id, logger } = opts;
  const now = opts.now ?? (() => performance.now());
  if (opts.signal?.aborted) return { status: 'canceled', items: [], reason: 'CANCELED' };
  const started = now();
  const inner = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<LayerInput>((resolve) => {
    timer = setTimeout(() => {
      inner.abort();
      resolve({ status: 'timeout', items: [], reason: 'TIMEOUT' });
    }, opts.timeoutMs);
    onAbort = () => {
      inner.abort();
      resolve({ status: 'canceled', items: [], reason: 'CANCELED' });
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const work = opts.load(inner.signal).then(
    (items): LayerInput =>
      now() - started > opts.timeoutMs
        ? { status: 'timeout', items: [], reason: 'TIMEOUT' }
        : opts.signal?.aborted
          ? { status: 'canceled', items: [], reason: 'CANCELED' }
          : { status: items.length > 0 ? 'ok' : 'empty', items },
    (error: unknown): LayerInput => {
      const code = error instanceof EngineError ? error.code : 'INTERNAL';
      if (code === 'CANCELED') return { status: 'canceled', items: [], reason: code };
      if (code === 'TIMEOUT') return { status: 'timeout', items: [], reason: code };
      return { status: 'missing', items: [], reason: code };
    },
  );
  try {
    const result = await Promise.race([work, stop]);
    if (result.status !== 'ok' && result.status !== 'empty') {
      logger?.warn('context.layer.unavailable', { layer: id, status: result.status, code: result.reason ?? null });
    }
    return result;
  } finally {
    clearTimeout(timer);
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
  }
}
