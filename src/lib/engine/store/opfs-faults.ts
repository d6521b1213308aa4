/**
 * Why an OPFS write failed. sqlite-wasm's sahpool VFS reports every failed write or truncate to SQLite
 * as a plain SQLITE_IOERR ("disk I/O error"): when the origin's quota is used up, a
 * FileSystemSyncAccessHandle write returns a count that is not the length asked for (Chromium 156:
 * 4294967288) or throws QuotaExceededError, and that
 * cause is lost. A person can act on "storage is full" (free space, export, clean up) but not on
 * "I/O error", so the DB worker notes the cause here, at the handle, and the driver turns the I/O
 * error into SQLITE_FULL — which the engine answers with QUOTA_EXCEEDED and its guidance.
 *
 *   sah.write ─ short / QuotaExceededError ─▶ noteFault('full') ─┐
 *   SQLite: SQLITE_IOERR ─▶ driver.translateError ─ fault? ─────▶ "SQLITE_FULL: database or disk is full"
 */
export type StorageFaultKind = 'full';

interface FaultState {
  kind: StorageFaultKind;
  at: number;
}

let lastFault: FaultState | null = null;

/** A fault older than this belongs to an earlier statement. */
const FAULT_TTL_MS = 10_000;

export function noteStorageFault(kind: StorageFaultKind, now = Date.now()): void {
  lastFault = { kind, at: now };
}

/** The fault noted for the failure being handled now, if any (each is used once). */
export function takeStorageFault(now = Date.now()): StorageFaultKind | null {
  const fault = lastFault;
  lastFault = null;
  return fault && now - fault.at <= FAULT_TTL_MS ? fault.kind : null;
}

const isQuotaError = (err: unknown): boolean => (err as { name?: string } | null)?.name === 'QuotaExceededError';

interface SyncHandleProto {
  write(buffer: ArrayBufferView | ArrayBuffer, opts?: { at?: number }): number;
  truncate(size: number): void;
  __engramFaultProbe?: true;
}

/**
 * Wraps FileSystemSyncAccessHandle's write and truncate (in this worker only) to note a full quota.
 * Nothing else changes: the result and any exception pass through as they were.
 */
export function installOpfsFaultProbe(scope: { FileSystemSyncAccessHandle?: { prototype: SyncHandleProto } } = globalThis as never): boolean {
  const proto = scope.FileSystemSyncAccessHandle?.prototype;
  if (!proto) return false;
  if (proto.__engramFaultProbe) return true;
  const write = proto.write;
  const truncate = proto.truncate;
  proto.write = function (this: SyncHandleProto, buffer, opts) {
    try {
      const written = write.call(this, buffer, opts);
      // Chromium answers a write beyond the quota with a count that is not the length (2^32 − 8).
      if (written !== buffer.byteLength) noteStorageFault('full');
      return written;
    } catch (err) {
      if (isQuotaError(err)) noteStorageFault('full');
      throw err;
    }
  };
  proto.truncate = function (this: SyncHandleProto, size) {
    try {
      truncate.call(this, size);
    } catch (err) {
      if (isQuotaError(err)) noteStorageFault('full');
      throw err;
    }
  };
  Object.defineProperty(proto, '__engramFaultProbe', { value: true });
  return true;
}

const IO_ERROR = /SQLITE_IOERR|disk I\/O error/i;

/** The driver's translateError: an I/O error caused by a full quota becomes SQLITE_FULL, with its cause. */
export function translateStorageFault(err: unknown, now = Date.now()): unknown {
  const message = err instanceof Error ? err.message : String(err);
  if (!IO_ERROR.test(message)) return err;
  if (takeStorageFault(now) !== 'full') return err;
  return new Error("SQLITE_FULL: database or disk is full (the browser's storage quota for this site is used up)", { cause: err });
}
