import { fail, type IpcResponse } from '../../domain/errors';
import type { EngineRequest } from '../engine';
import { isUserWrite, type Input, type Method, type Output } from '../protocol/contract';
import { newOpId as timeOrderedOpId } from './op-id';

/** A typed way to reach the engine, wherever it runs (this worker, a leader in another tab, Node). */
export interface EngineCaller {
  call<M extends Method>(method: M, input: Input<M>, opts?: { opId?: string }): Promise<IpcResponse<Output<M>>>;
}

export interface RawEndpoint {
  call(req: EngineRequest): Promise<IpcResponse<unknown>>;
}

/**
 * Wraps a raw endpoint (a Comlink proxy, a host): every write a person makes gets an op id so it is applied
 * once even when re-sent (background bookkeeping is idempotent by nature and goes without one), and a
 * broken transport becomes DB_UNAVAILABLE instead of an exception.
 */
export function createCaller(endpoint: RawEndpoint, newOpId: () => string = () => timeOrderedOpId()): EngineCaller {
  return {
    async call(method, input, opts) {
      const opId = opts?.opId ?? (isUserWrite(method) ? newOpId() : undefined);
      try {
        return (await endpoint.call({ method, input, opId })) as IpcResponse<never>;
      } catch {
        return fail('DB_UNAVAILABLE', 'The database worker is not reachable. Reload the app to reconnect.');
      }
    },
  };
}
