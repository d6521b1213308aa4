/**
 * Shared by this folder's tests only: settings for a fake server, a fetch that behaves like a browser's,
 * and a way to catch the EngineError a call throws.
 */
import { expect } from 'vitest';
import { EngineError } from '../errors';
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from './settings';

/** Settings built directly (not parsed), so tests may use timeouts shorter than the 1 s the schema allows. */
export function settingsFor(baseUrl: string, patch: Partial<ModelSettings> = {}): ModelSettings {
  return { ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl, model: 'test-model', timeoutMs: 2000, ...patch };
}

export async function caught(run: () => Promise<unknown>): Promise<EngineError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(EngineError);
    return err as EngineError;
  }
  throw new Error('expected the call to fail');
}

export async function drain<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}

/**
 * What a page sees: a cross-origin response without Access-Control-Allow-Origin, and a closed port, both
 * become a bare `TypeError: Failed to fetch`; `mode: 'no-cors'` requests are not checked and give an
 * opaque response. Node's fetch enforces no CORS, so this wrapper does.
 */
export function browserLikeFetch(real: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const failed = () => new TypeError('Failed to fetch');
    if (init?.mode === 'no-cors') {
      const { mode: _mode, ...rest } = init;
      try {
        await (await real(input, rest)).arrayBuffer();
      } catch {
        throw failed();
      }
      return new Response(null, { status: 200 });
    }
    let res: Response;
    try {
      res = await real(input, init);
    } catch (err) {
      if (init?.signal?.aborted) throw err;
      throw failed();
    }
    if (!res.headers.get('access-control-allow-origin')) {
      await res.body?.cancel();
      throw failed();
    }
    return res;
  };
}
