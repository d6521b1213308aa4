/**
 * A database image with its write-ahead log applied, as SQLite itself would read it — for opening a
 * database read-only from a copy of its files when SQLite cannot open the files themselves (the
 * browser's storage is full at start-up: open-wasm.ts). On OPFS the last commits live in the WAL until
 * a checkpoint, so the main file alone would look like lost work.
 *
 * The WAL format (https://sqlite.org/fileformat2.html#walformat): a 32-byte header (magic, version,
 * page size, checkpoint sequence, two salts, a checksum), then frames of a 24-byte header (page number,
 * database size in pages for a commit frame, the salts, a running checksum) and one page. A frame
 * counts only if its salts match the header and the running checksum holds; only the frames up to the
 * last valid commit frame are applied — a torn write at the end, or frames of an older generation of
 * the log, are ignored exactly as SQLite's recovery ignores them.
 */
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

export interface WalReplay {
  image: Uint8Array;
  /** Frames applied (those of committed transactions). */
  frames: number;
  /** Committed transactions found in the log. */
  commits: number;
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from [s1, s2]. */
function checksum(data: Uint8Array, bigEndian: boolean, s: [number, number]): [number, number] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let [s1, s2] = s;
  for (let i = 0; i + 8 <= data.byteLength; i += 8) {
    s1 = (s1 + view.getUint32(i, !bigEndian) + s2) >>> 0;
    s2 = (s2 + view.getUint32(i + 4, !bigEndian) + s1) >>> 0;
  }
  return [s1, s2];
}

/** The page size a database header declares (1 means 65536). */
function headerPageSize(db: Uint8Array): number {
  const raw = (db[16]! << 8) | db[17]!;
  return raw === 1 ? 65536 : raw;
}

/**
 * `db` with the committed frames of `wal` applied. A missing, empty or foreign WAL leaves the image as
 * it was. The result's header is set to rollback mode (bytes 18–19 = 1), so it opens without a WAL.
 */
export function applyWal(db: Uint8Array, wal: Uint8Array | null): WalReplay {
  let image = db.slice();
  let frames = 0;
  let commits = 0;
  if (wal && wal.byteLength >= WAL_HEADER) {
    const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
    const magic = view.getUint32(0);
    const pageSize = view.getUint32(8);
    const validSize = pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0;
    if ((magic === WAL_MAGIC_LE || magic === WAL_MAGIC_BE) && validSize && (image.byteLength === 0 || headerPageSize(image) === pageSize)) {
      const bigEndian = magic === WAL_MAGIC_BE;
      let sum = checksum(wal.subarray(0, 24), bigEndian, [0, 0]);
      if (sum[0] === view.getUint32(24) && sum[1] === view.getUint32(28)) {
        const salt1 = view.getUint32(16);
        const salt2 = view.getUint32(20);
        const pending: { pgno: number; at: number }[] = [];
        let committed: { pgno: number; at: number }[] = [];
        let dbPages = 0;
        for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.byteLength; at += FRAME_HEADER + pageSize) {
          const pgno = view.getUint32(at);
          const commitSize = view.getUint32(at + 4);
          if (pgno === 0 || view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
          sum = checksum(wal.subarray(at, at + 8), bigEndian, sum);
          sum = checksum(wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize), bigEndian, sum);
          if (sum[0] !== view.getUint32(at + 16) || sum[1] !== view.getUint32(at + 20)) break;
          pending.push({ pgno, at: at + FRAME_HEADER });
          if (commitSize > 0) {
            committed = committed.concat(pending.splice(0));
            dbPages = commitSize;
            commits++;
          }
        }
        if (commits > 0) {
          const size = dbPages * pageSize;
          if (size !== image.byteLength) {
            const resized = new Uint8Array(size);
            resized.set(image.subarray(0, Math.min(size, image.byteLength)));
            image = resized;
          }
          for (const { pgno, at } of committed) {
            if (pgno > dbPages) continue;
            image.set(wal.subarray(at, at + pageSize), (pgno - 1) * pageSize);
          }
          frames = committed.length;
        }
      }
    }
  }
  if (image.byteLength >= 20) {
    if (image[18] === 2) image[18] = 1;
    if (image[19] === 2) image[19] = 1;
  }
  return { image, frames, commits };
}
