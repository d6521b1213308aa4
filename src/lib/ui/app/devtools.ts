/**
 * The console handle `globalThis.engram` ({ call, connection }) reaches the whole engine: every read,
 * every write, clear-all. It is set only where someone asked for it — a development build, or a
 * browser where `localStorage['engram.devtools']` is '1' (a power user's choice; the end-to-end tests
 * set it) — so a script injected into a normal session finds no ready-made door (issue 13). The
 * Content-Security-Policy keeps such a script from running at all; this is the second layer.
 */
export const DEVTOOLS_KEY = 'engram.devtools';

export function devtoolsEnabled(opts: { dev: boolean; storage: Pick<Storage, 'getItem'> | undefined }): boolean {
  if (opts.dev) return true;
  try {
    return opts.storage?.getItem(DEVTOOLS_KEY) === '1';
  } catch {
    return false; // storage blocked
  }
}

/** localStorage key of the development fault switch (devtools only): `memory-unreadable`. */
export const FAULT_KEY = 'engram.fault';

/**
 * The fault the DB worker starts with, for the no-memory mode's end-to-end test (issue 19): only where
 * the devtools are on, so a normal session can never be started broken.
 */
export function devFault(opts: { dev: boolean; storage: Pick<Storage, 'getItem'> | undefined }): 'memory-unreadable' | null {
  if (!devtoolsEnabled(opts)) return null;
  try {
    return opts.storage?.getItem(FAULT_KEY) === 'memory-unreadable' ? 'memory-unreadable' : null;
  } catch {
    return null;
  }
}
