/**
 * An FTS5 index's structure record (its `%_data` row 10: levels, each a list of segments with their leaf pages, and
 * a merge in progress), decoded as fts5_index.c's fts5StructureDecode reads it. What the reindex reads to size its
 * merging by the index's shape (fts-reindex-slices.ts), and what the benchmarks print.
 */
export interface FtsSegment {
  id: number;
  /** Leaf pages (pgnoLast - pgnoFirst + 1). */
  pages: number;
}
export interface FtsLevel {
  /** Input segments of a merge in progress from this level into the next (0: none). */
  merging: number;
  segments: FtsSegment[];
}
export interface FtsStructure {
  levels: FtsLevel[];
}

/** FTS5's varint (sqlite4-style: up to 9 bytes, 7 bits a byte, the 9th byte whole). */
function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const x = b[at + i] ?? 0;
    v = v * 128 + (x & 0x7f);
    if (!(x & 0x80)) return [v, at + i + 1];
  }
  return [v * 256 + (b[at + 8] ?? 0), at + 9];
}

const V2 = [0xff, 0x00, 0x00, 0x01];

export function decodeFtsStructure(block: Uint8Array): FtsStructure {
  let at = 4;
  const v2 = V2.every((x, i) => block[4 + i] === x);
  if (v2) at += 4;
  let nLevel: number;
  [nLevel, at] = varint(block, at);
  [, at] = varint(block, at); // segments in all
  [, at] = varint(block, at); // write counter
  const levels: FtsLevel[] = [];
  for (let l = 0; l < nLevel; l++) {
    let merging: number;
    let n: number;
    [merging, at] = varint(block, at);
    [n, at] = varint(block, at);
    const segments: FtsSegment[] = [];
    for (let s = 0; s < n; s++) {
      let id: number, first: number, last: number;
      [id, at] = varint(block, at);
      [first, at] = varint(block, at);
      [last, at] = varint(block, at);
      // V2: origin1, origin2, tombstone pages, tombstone entries, entries.
      if (v2) for (let k = 0; k < 5; k++) [, at] = varint(block, at);
      segments.push({ id, pages: last - first + 1 });
    }
    levels.push({ merging, segments });
  }
  return { levels };
}
