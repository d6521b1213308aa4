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

/** `pause` lets other work run (a macrotask turn by default); `sliceMs` is how much reading may pass between pauses. */
export async function readExportFile(blob: Blob, opts: { sliceMs?: number; pause?: () => Promise<void> } = {}): Promise<ValidatedExport> {
  const collector = createExportCollector();
  const splitter = createJsonSplitter((event) => collector.accept(event));
  await readTextPieces(blob, (piece) => splitter.push(piece), opts);
  splitter.end();
  // The whole-file checks a table at a time, other calls between them (issue 16).
  return collector.finishInSteps(opts.pause ?? yieldToOthers);
}

/**
 * Hands a file's text to `push` in pieces of PIECE_CHARS, pausing whenever `sliceMs` of work has passed
 * (also for imports from other apps, engine/imports/read-import.ts).
 */
export async function readTextPieces(blob: Blob, push: (piece: string) => void, opts: { sliceMs?: number; pause?: () => Promise<void> } = {}): Promise<void> {
  const reader = blob.stream().pipeThrough(new TextDecoderStream()).getReader();
  const sliceMs = opts.sliceMs ?? SLICE_MS;
  const pause = opts.pause ?? yieldToOthers;
  let since = performance.now();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // A stream may hand over megabytes at once: fed in small slices, with a pause whenever a slice of
      // time is used up.
      for (let at = 0; at < value.length; at += PIECE_CHARS) {
        push(value.slice(at, at + PIECE_CHARS));
        if (performance.now() - since >= sliceMs) {
          await pause();
          since = performance.now();
        }
      }
    }
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw err;
  }
}
