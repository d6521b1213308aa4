import { describe, expect, it } from 'vitest';
import { classifySqliteError } from './sqlite-errors';
import { installOpfsFaultProbe, noteStorageFault, takeStorageFault, translateStorageFault } from './opfs-faults';

/** A stand-in for FileSystemSyncAccessHandle whose writes fail the ways Chromium's do on a full quota. */
function fakeScope(behaviour: { write: 'ok' | 'wrong-count' | 'throw'; truncate: 'ok' | 'throw' }) {
  const quota = () => Object.assign(new Error('would exceed its storage quota'), { name: 'QuotaExceededError' });
  class FileSystemSyncAccessHandle {
    write(buffer: ArrayBufferView) {
      if (behaviour.write === 'throw') throw quota();
      return behaviour.write === 'ok' ? buffer.byteLength : 4294967288;
    }
    truncate() {
      if (behaviour.truncate === 'throw') throw quota();
    }
  }
  return { FileSystemSyncAccessHandle } as never;
}

const IOERR = new Error('SQLITE_IOERR: sqlite3 result code 10: disk I/O error');

describe('OPFS fault probe (issue 13: QUOTA_EXCEEDED instead of "disk I/O error")', () => {
  it.each([
    ['a write answered with the wrong count (Chromium 156)', { write: 'wrong-count', truncate: 'ok' } as const, 'write'],
    ['a write that throws QuotaExceededError', { write: 'throw', truncate: 'ok' } as const, 'write'],
    ['a truncate that throws QuotaExceededError', { write: 'ok', truncate: 'throw' } as const, 'truncate'],
  ])('%s: the next I/O error becomes SQLITE_FULL → QUOTA_EXCEEDED', (_name, behaviour, op) => {
    takeStorageFault();
    const scope = fakeScope(behaviour) as { FileSystemSyncAccessHandle: new () => { write(b: Uint8Array): number; truncate(n: number): void } };
    expect(installOpfsFaultProbe(scope as never)).toBe(true);
    const handle = new scope.FileSystemSyncAccessHandle();
    try {
      if (op === 'write') handle.write(new Uint8Array(8192));
      else handle.truncate(1 << 30);
    } catch {
      /* the VFS sees the exception as it was */
    }
    const translated = translateStorageFault(IOERR);
    expect(translated).not.toBe(IOERR);
    expect(classifySqliteError(translated)?.code).toBe('QUOTA_EXCEEDED');
    // Used once: the next I/O error without a fault stays what it is.
    expect(translateStorageFault(IOERR)).toBe(IOERR);
  });

  it('a write that succeeds notes nothing; an I/O error without a fault stays DB_UNAVAILABLE', () => {
    takeStorageFault();
    const scope = fakeScope({ write: 'ok', truncate: 'ok' }) as { FileSystemSyncAccessHandle: new () => { write(b: Uint8Array): number } };
    installOpfsFaultProbe(scope as never);
    expect(new scope.FileSystemSyncAccessHandle().write(new Uint8Array(10))).toBe(10);
    expect(classifySqliteError(translateStorageFault(IOERR))?.code).toBe('DB_UNAVAILABLE');
  });

  it('a fault is not blamed for an error that is no I/O error, nor for one long after it', () => {
    noteStorageFault('full', 1000);
    const constraint = new Error('UNIQUE constraint failed');
    expect(translateStorageFault(constraint, 1000)).toBe(constraint);
    expect(translateStorageFault(IOERR, 1000 + 60_000)).toBe(IOERR);
  });

  it('without FileSystemSyncAccessHandle (Node, a window) nothing is installed', () => {
    expect(installOpfsFaultProbe({} as never)).toBe(false);
  });
});
