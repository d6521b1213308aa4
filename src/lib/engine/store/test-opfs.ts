/**
 * Tests only: an in-memory stand-in for the OPFS calls sqlite-wasm's sahpool VFS makes (a directory tree, files with
 * synchronous access handles), so the browser's storage path — sahpool, WAL, the I/O counters on
 * FileSystemSyncAccessHandle (io-counters.ts) — runs under Vitest in Node. The files outlive a pool (closing every
 * handle and installing the pool again is a restart of the worker without a checkpoint).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';

class FakeSyncAccessHandle {
  constructor(private file: { bytes: Uint8Array; size: number }) {}
  read(into: Uint8Array, opts: { at: number }): number {
    const n = Math.max(0, Math.min(into.byteLength, this.file.size - opts.at));
    into.set(this.file.bytes.subarray(opts.at, opts.at + n));
    return n;
  }
  write(from: Uint8Array, opts: { at: number }): number {
    const end = opts.at + from.byteLength;
    if (end > this.file.bytes.byteLength) {
      const grown = new Uint8Array(Math.max(end, this.file.bytes.byteLength * 2));
      grown.set(this.file.bytes.subarray(0, this.file.size));
      this.file.bytes = grown;
    }
    this.file.bytes.set(from instanceof Uint8Array ? from : new Uint8Array(from), opts.at);
    this.file.size = Math.max(this.file.size, end);
    return from.byteLength;
  }
  getSize(): number {
    return this.file.size;
  }
  truncate(n: number): void {
    if (n > this.file.bytes.byteLength) this.write(new Uint8Array(n - this.file.size), { at: this.file.size });
    this.file.size = n;
  }
  flush(): void {}
  close(): void {}
}

class FakeFileHandle {
  readonly kind = 'file';
  constructor(
    readonly name: string,
    private file: { bytes: Uint8Array; size: number },
  ) {}
  async createSyncAccessHandle(): Promise<FakeSyncAccessHandle> {
    return new FakeSyncAccessHandle(this.file);
  }
}

class FakeDirectoryHandle {
  readonly kind = 'directory';
  private dirs = new Map<string, FakeDirectoryHandle>();
  private files = new Map<string, FakeFileHandle>();
  constructor(readonly name: string) {}
  async getDirectoryHandle(name: string, opts?: { create?: boolean }): Promise<FakeDirectoryHandle> {
    let d = this.dirs.get(name);
    if (!d && opts?.create) this.dirs.set(name, (d = new FakeDirectoryHandle(name)));
    if (!d) throw new DOMException(`no directory ${name}`, 'NotFoundError');
    return d;
  }
  async getFileHandle(name: string, opts?: { create?: boolean }): Promise<FakeFileHandle> {
    let f = this.files.get(name);
    if (!f && opts?.create) this.files.set(name, (f = new FakeFileHandle(name, { bytes: new Uint8Array(0), size: 0 })));
    if (!f) throw new DOMException(`no file ${name}`, 'NotFoundError');
    return f;
  }
  async removeEntry(name: string): Promise<void> {
    this.dirs.delete(name);
    this.files.delete(name);
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<[string, FakeDirectoryHandle | FakeFileHandle]> {
    yield* this.dirs.entries();
    yield* this.files.entries();
  }
  entries() {
    return this[Symbol.asyncIterator]();
  }
}

/** Puts the fake OPFS on globalThis (once per test file) and returns its FileSystemSyncAccessHandle for the I/O counters. */
export function installFakeOpfs(): { FileSystemSyncAccessHandle: typeof FakeSyncAccessHandle } {
  const root = new FakeDirectoryHandle('');
  const g = globalThis as Record<string, unknown>;
  g.FileSystemHandle = class {};
  g.FileSystemDirectoryHandle = FakeDirectoryHandle;
  g.FileSystemFileHandle = FakeFileHandle;
  g.FileSystemSyncAccessHandle = FakeSyncAccessHandle;
  Object.defineProperty(globalThis, 'navigator', { value: { storage: { getDirectory: async () => root } }, configurable: true });
  return { FileSystemSyncAccessHandle: FakeSyncAccessHandle };
}

/**
 * sqlite-wasm's browser build (the one with the sahpool VFS; Node's export has none), its wasm handed over from the
 * file rather than fetched.
 */
export async function loadBrowserSqlite3(): Promise<Sqlite3Static> {
  const dist = join(dirname(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/package.json')), 'dist');
  const mod = (await import(/* @vite-ignore */ pathToFileURL(join(dist, 'index.mjs')).href)) as { default: (o: unknown) => Promise<Sqlite3Static> };
  const bytes = readFileSync(join(dist, 'sqlite3.wasm'));
  // Its other OPFS VFSes need a page's `location`; each says so on console.warn while it loads (the sahpool one does not).
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith('Ignoring inability to install')) warn(...args);
  };
  return mod
    .default({
    print: () => {},
    printErr: () => {},
    instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) {
      void WebAssembly.instantiate(bytes, imports).then((r) => done(r.instance, r.module));
      return {};
    },
    })
    .finally(() => (console.warn = warn));
}
