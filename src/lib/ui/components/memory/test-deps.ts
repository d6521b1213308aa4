import type { IpcError } from '../../../domain/errors';
import { createTestEngine } from '../../../engine/testing';
import type { StateDeps } from './state-deps';

/** Test helper: a real engine (in-memory sqlite-wasm, fixed clock) and the failures the page would show. */
export async function engineDeps() {
  const t = await createTestEngine();
  const errors: { code: string; context: string }[] = [];
  const deps: StateDeps = {
    engine: () => t.engine,
    onError: (error: IpcError, context: string) => void errors.push({ code: error.code, context }),
  };
  return { ...t, deps, errors };
}
