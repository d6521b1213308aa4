/**
 * Node-only. Calling the engine from the CLI: an engine failure becomes an EngineError whose message
 * and fields speak in the CLI's option names (`sessionId` → `--conversation`), so an error points at
 * what the person typed.
 */
import { EngineError, type IpcError } from '../domain/errors';
import type { Engine } from '../engine/engine';
import type { Input, Method, Output } from '../engine/protocol/contract';

/** Engine field (as it appears between backticks in engine messages) → CLI option. */
export type FieldNames = Readonly<Record<string, string>>;

export function renameFields(error: IpcError, names: FieldNames): EngineError {
  // Own names only: a message may quote `__proto__` or `constructor` (a refused key), which a plain
  // lookup would find on Object.prototype and print as "[object Object]".
  const nameOf = (field: string): string | undefined => (Object.hasOwn(names, field) ? names[field] : undefined);
  const message = error.message.replace(/`([^`]+)`/g, (whole, field: string) => {
    const name = nameOf(field);
    return name ? `\`${name}\`` : whole;
  });
  const details = { ...error.details };
  // A nested input field (`scope.id`) is named by its head's option when it has none of its own.
  const rename = (f: unknown) => (typeof f === 'string' ? (nameOf(f) ?? nameOf(f.split('.')[0] as string) ?? f) : f);
  if (Array.isArray(details.fields)) details.fields = details.fields.map(rename);
  if (typeof details.field === 'string') details.field = rename(details.field);
  // One spelling for the CLI's output: a single `field` becomes `fields`.
  if (!Array.isArray(details.fields) && typeof details.field === 'string') details.fields = [details.field];
  return new EngineError(error.code, message, details);
}

/** A typed engine call that throws the failure, in the CLI's option names: `callerFor(engine, names)(method, input)`. */
export function callerFor(engine: Engine, names: FieldNames = {}) {
  return async <M extends Method>(method: M, input: Input<M>): Promise<Output<M>> => {
    const res = await engine.call(method, input);
    if (res.ok) return res.data;
    throw renameFields(res.error, names);
  };
}
