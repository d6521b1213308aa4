/**
 * Giving freed pages back in bounded steps (issue 19: "the database visibly shrinks after compression and
 * purge"). A database is made in SQLite's incremental auto-vacuum (store/migrate.ts); one made before that
 * switches at its first manual "clean now" (its VACUUM). Each step
 * moves at most VACUUM_PAGES pages off the free list and truncates the file by as much: a slice's worth of
 * work, never a whole-file rewrite. On a database without incremental auto-vacuum a step does nothing.
 */
import type { SqlDriver } from '../store/driver';

/** Pages one step gives back (8 KiB pages in the browser: 256 KiB). */
export const VACUUM_PAGES = 32;

/** SQLite's `auto_vacuum` value for INCREMENTAL. */
const INCREMENTAL = 2;

export const freePages = (driver: SqlDriver): number => driver.get<{ n: number }>('SELECT freelist_count AS n FROM pragma_freelist_count()')?.n ?? 0;
export const isIncremental = (driver: SqlDriver): boolean => driver.get<{ n: number }>('SELECT auto_vacuum AS n FROM pragma_auto_vacuum()')?.n === INCREMENTAL;

/** One bounded piece of incremental vacuum; true while free pages remain after it. */
export function vacuumStep(driver: SqlDriver): boolean {
  if (!isIncremental(driver)) return false;
  const free = freePages(driver);
  if (free === 0) return false;
  // Stepped to the end (all): each step of this pragma frees one page.
  driver.all(`PRAGMA incremental_vacuum(${VACUUM_PAGES})`);
  return free > VACUUM_PAGES;
}
