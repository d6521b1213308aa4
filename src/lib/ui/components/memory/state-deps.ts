import type { IpcError, IpcResponse } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import { formErrorsFromIpc, type FormErrors } from './form-errors';

/**
 * What the memory page's state modules need from the app: the engine and the one error handler. The app
 * passes the page's connection and handleError; tests pass a real engine (createTestEngine) and a recorder.
 */
export interface StateDeps {
  engine: () => Pick<EngineCaller, 'call'>;
  onError: (error: IpcError, context: string) => void;
}

/** How a form's save ended, as data the form renders. */
export type SaveOutcome =
  | { kind: 'saved' }
  /** Nothing differed from what is stored: no call was made. */
  | { kind: 'unchanged' }
  | { kind: 'invalid'; errors: FormErrors }
  /** Someone else changed it first (another tab, the extractor); the form shows the current state. */
  | { kind: 'conflict' }
  /** Any other failure, already shown as a notice. */
  | { kind: 'failed' };

/** A failed write → the form's outcome: field errors stay at their fields, the rest becomes a notice. */
export function failedOutcome(deps: StateDeps, error: IpcError, context: string): SaveOutcome {
  if (error.code === 'CONFLICT') return { kind: 'conflict' };
  const errors = formErrorsFromIpc(error);
  if (errors) return { kind: 'invalid', errors };
  deps.onError(error, context);
  return { kind: 'failed' };
}

/** The data of a read, or null after reporting the failure. */
export function dataOr<T>(deps: StateDeps, res: IpcResponse<T>, context: string): T | null {
  if (res.ok) return res.data;
  deps.onError(res.error, context);
  return null;
}
