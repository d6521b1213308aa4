import { createExportCollector, createJsonSplitter, type ValidatedExport } from '../../domain/backup';

/**
 * Reads an import file as a stream of text pieces — never the whole text at once — splitting,
 * scanning and validating each row as it arrives. Every few milliseconds of work it lets other engine
 * calls run, so a large file being read does not hold up the chat or anyone else's writes.
 */
const SLICE_MS = 12;
/** The most text read between two chances for other calls to run. */
export const PIECE_CHARS = 32 * 1024;

const yieldToOthers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `pause` lets other work run (a macrotask turn by default); `sliceMs` is how much reading may pass between pauses;
 * `onRead` hears how far the reading has come (bytes).
 */
export async function readExportFile(
  blob: Blob,
  opts: { sliceMs?: number; pause?: () => Promise<void>; onRead?: (bytesRead: number, totalBytes: number) => void } = {},
): Promise<ValidatedExport> {
  const collector = createExportCollector();
  const splitter = createJsonSplitter((event) => collector.accept(event));
  await readTextPieces(blob, (piece) => splitter.push(piece), opts);
  splitter.end();
  // The whole-file checks a table at a time, other calls between them (issue 16).
  return collector.finishInSteps(opts.pause ?? yieldToOthers);
}

/**
 * The most bytes of the file read and decoded at once. A platform's stream may hand over a whole file as one
 * chunk (Node's Blob does), and decoding it in one go was the stall at the start of a large import's preview
 * (issue 16: 270–410 ms of CPU for a 9.6 MB file, bench/speed/import-steps.ts) — no other call ran meanwhile.
 */
export const READ_BYTES = 256 * 1024;

/**
 * Hands a file's text to `push` in pieces of PIECE_CHARS, read and decoded READ_BYTES at a time, pausing
 * whenever `sliceMs` of work has passed (also for imports from other apps, engine/imports/read-import.ts).
 * `onRead` hears how many of the file's bytes have been read after each read.
 */
export async function readTextPieces(
  blob: Blob,
  push: (piece: string) => void,
  opts: { sliceMs?: number; pause?: () => Promise<void>; onRead?: (bytesRead: number, totalBytes: number) => void } = {},
): Promise<void> {
  // A multi-byte character cut by a read's end is completed by the next read (stream: true), as
  // TextDecoderStream would; invalid bytes become U+FFFD and a leading BOM is dropped, as before.
  const decoder = new TextDecoder();
  const sliceMs = opts.sliceMs ?? SLICE_MS;
  const pause = opts.pause ?? yieldToOthers;
  let since = performance.now();
  const feed = async (text: string) => {
    for (let at = 0; at < text.length; at += PIECE_CHARS) {
      push(text.slice(at, at + PIECE_CHARS));
      if (performance.now() - since >= sliceMs) {
        await pause();
        since = performance.now();
      }
    }
  };
  for (let at = 0; at < blob.size; at += READ_BYTES) {
    const end = Math.min(at + READ_BYTES, blob.size);
    await feed(decoder.decode(await blob.slice(at, end).arrayBuffer(), { stream: true }));
    opts.onRead?.(end, blob.size);
  }
  await feed(decoder.decode());
}
