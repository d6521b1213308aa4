/**
 * Node-only. What belongs to one database file lives in a folder named after it, beside it — as
 * SQLite's own `-wal` and `-shm` files are — so two databases in one folder never share anything
 * (issue 13 defect 4: project files were kept per folder, and a replace in one database overwrote the
 * files of its neighbour):
 *
 *   work.db            the database
 *   work.db-engram/    its project setting files (projects/<id>/.engram/…) and process notes
 */
export const sidecarDir = (dbPath: string): string => `${dbPath}-engram`;
