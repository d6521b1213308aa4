/**
 * Node-only. Which Engram processes have a database open, and what they are doing — so a command that
 * waits for the write lock can say who holds it ("process 4242, `import`, writing since 12:03"), and a
 * long import can step aside for a writer that waits (fairness between SQLite's one writer at a time).
 *
 *   <db>-engram/processes/<pid>.json   { pid, command, since, writing?, waiting? }
 *
 * One small file per process, written when it opens the database and removed when it closes it; a
 * file whose process is gone (a crash, kill -9) is ignored and cleaned up by the next reader. SQLite
 * itself cannot tell who holds its lock, and a row in the database could not be read by the process
 * that waits for it (the holder's transaction is not committed).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sidecarDir } from './sidecar';

export interface PresenceNote {
  pid: number;
  /** The CLI command (`import`, `store`, `serve` …): never its arguments, which may be the user's text. */
  command: string;
  since: number;
  /** Set while the process is in a long write (an import), with when it started. */
  writing?: number;
  /** Set while the process waits for the write lock. */
  waiting?: number;
}

export interface Presence {
  /** Marks this process as writing (a long write begins) or not. */
  writing(on: boolean): void;
  /** Marks this process as waiting for the write lock, or not. */
  waiting(on: boolean): void;
  /** The other live processes on this database. */
  others(): PresenceNote[];
  /** Forgets this process (on close). */
  leave(): void;
}

const processesDir = (dbPath: string) => join(sidecarDir(dbPath), 'processes');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as { code?: string }).code === 'EPERM';
  }
}

function readNotes(dir: string, self: number): PresenceNote[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const notes: PresenceNote[] = [];
  for (const name of names) {
    const pid = Number(name.replace(/\.json$/, ''));
    if (!Number.isSafeInteger(pid) || pid === self) continue;
    if (!alive(pid)) {
      rmSync(join(dir, name), { force: true });
      continue;
    }
    try {
      const note = JSON.parse(readFileSync(join(dir, name), 'utf8')) as PresenceNote;
      if (note.pid === pid) notes.push(note);
    } catch {
      /* being written right now: skip it this time */
    }
  }
  return notes.sort((a, b) => (b.writing ?? 0) - (a.writing ?? 0) || a.since - b.since);
}

export function joinPresence(dbPath: string, command: string, now: () => number = Date.now): Presence {
  const dir = processesDir(dbPath);
  const file = join(dir, `${process.pid}.json`);
  const note: PresenceNote = { pid: process.pid, command, since: now() };
  const save = () => {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, JSON.stringify(note));
    } catch {
      /* a read-only folder: the database works without notes, waiting messages are vaguer */
    }
  };
  save();
  return {
    writing(on) {
      if (on) note.writing = now();
      else delete note.writing;
      save();
    },
    waiting(on) {
      if (on) note.waiting = now();
      else delete note.waiting;
      save();
    },
    others: () => readNotes(dir, process.pid),
    leave() {
      rmSync(file, { force: true });
    },
  };
}

/** "process 4242 (`import`, writing since 12:03:05)" for each other process, the writer first. */
export function describeHolders(notes: readonly PresenceNote[]): string {
  const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);
  const one = (n: PresenceNote) =>
    `process ${n.pid} (\`${n.command}\`${n.writing ? `, writing since ${time(n.writing)} UTC` : `, open since ${time(n.since)} UTC`})`;
  const holders = notes.filter((n) => !n.waiting);
  if (holders.length === 0) return 'another program';
  return holders.length === 1 ? one(holders[0]!) : `one of ${holders.map(one).join(', ')}`;
}
