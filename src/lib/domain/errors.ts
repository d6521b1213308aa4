/**
 * The closed, append-only list of error codes shared by every side of the engine (ARCHITECTURE §8).
 * Messages name the offending field and never contain user text.
 */
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'CONFLICT',
  'CANCELED',
  'TIMEOUT',
  'MEMORY_BACKPRESSURE',
  'MEMORY_CLEAR_CONFIRM_REQUIRED',
  'MEMORY_CLEANUP_FAILED',
  'DB_UNAVAILABLE',
  'QUOTA_EXCEEDED',
  'MODEL_UNAVAILABLE',
  'MIGRATION_FAILED',
  'UNSUPPORTED_VERSION',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface IpcError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export type IpcResponse<T> = { ok: true; data: T } | { ok: false; error: IpcError };

/** An expected failure with a stable code. Thrown inside the engine, turned into data at its boundary. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function ok<T>(data: T): IpcResponse<T> {
  return { ok: true, data };
}

export function fail<T = never>(code: ErrorCode, message: string, details?: Record<string, unknown>): IpcResponse<T> {
  return details === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, details } };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Unwraps a response or throws the error as an EngineError (for callers that prefer exceptions). */
export function unwrap<T>(res: IpcResponse<T>): T {
  if (res.ok) return res.data;
  throw new EngineError(res.error.code, res.error.message, res.error.details);
}
