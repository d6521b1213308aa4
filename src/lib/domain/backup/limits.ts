/**
 * Hard limits of an import file. They are checked in the cheapest order: the file's size before a
 * byte is read, the nesting depth and string lengths while scanning the text (safe-json), then types
 * and per-field lengths by the zod schemas (format.ts). Each limit is generous for real data and
 * small enough that a hostile file is refused before it can exhaust the worker's memory.
 */

/**
 * The largest backup file: Engram exports nothing larger and imports anything up to it, so every JSON
 * backup it writes can be restored (the exporter refuses beyond it, before writing a byte when its
 * estimate says so, and at the latest when the file would cross it). Imports are read piece by piece
 * and hold about 1.2× the file in the worker (105 MB for the 86 MB export of 100,000 memories with
 * their history; bench/backup-export.bench.ts), so 512 MB stays well inside a worker's memory. A
 * larger store still leaves whole through the database file (engine/backup/db-file.ts).
 */
export const MAX_BACKUP_BYTES = 512 * 1024 * 1024;

/** Nesting of objects and arrays anywhere in the file (the envelope itself uses 4 levels). */
export const MAX_JSON_DEPTH = 64;

/** The longest string anywhere in the file: a document (2,000,000 characters) is the longest text we store. */
export const MAX_STRING_CHARS = 2_000_000;

/** A JSON column (a memory's value, a run's layers or prompt) serialised. */
export const MAX_JSON_COLUMN_CHARS = 4_000_000;

/**
 * The longest single value (a row, a file, a top-level field) in a file read piece by piece: a row's
 * longest columns together (a document, a run's layers and prompt), escaped, with room to spare.
 */
export const MAX_ELEMENT_CHARS = 24_000_000;

/** Rows per table. */
export const MAX_ROWS_PER_TABLE = 2_000_000;

/** Project setting files in one export, and the size of each (the file store's own limit). */
export const MAX_FILES = 20_000;
export const MAX_FILE_CHARS = 1_000_000;

/** How much of the file is read first to recognise it (format, version) before reading the rest. */
export const SNIFF_BYTES = 64 * 1024;

/** Field and text limits shared by the table specs (generous multiples of what the engine accepts). */
export const TEXT = {
  short: 200,
  name: 1_000,
  path: 500,
  message: 200_000,
  memory: 20_000,
  summary: 20_000,
  profile: 200_000,
  document: 2_000_000,
  rule: 4_000,
  hash: 200,
} as const;
