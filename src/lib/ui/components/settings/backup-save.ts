/**
 * Where a backup goes. With the File System Access API (Chromium) the save dialog opens at the click,
 * and each piece of the export is written to disk as it arrives; elsewhere the pieces are kept as Blob
 * parts (which the browser may keep out of the page's memory) and handed over as one `<a download>`
 * at the end. Playwright cannot drive the native save dialog: deleting `window.showSaveFilePicker`
 * (page.addInitScript) selects the download path, which it sees as a `download` event.
 */
export interface SaveTarget {
  /** 'picker': the user chose the file already; 'download': the browser saves it at `close`. */
  readonly kind: 'picker' | 'download';
  write(piece: string | Blob): Promise<void>;
  close(): Promise<void>;
  /** Drops what was written (a canceled or failed export leaves no half file behind). */
  abort(): Promise<void>;
}

export interface SaveOptions {
  fileName: string;
  mime: string;
  /** For the dialog's file type list, e.g. 'Engram backup'. */
  description: string;
  extension: `.${string}`;
}

interface Writable {
  write(data: string | Blob): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

type SavePicker = (opts: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{ createWritable(): Promise<Writable> }>;

function picker(scope: unknown): SavePicker | null {
  const fn = (scope as { showSaveFilePicker?: unknown } | undefined)?.showSaveFilePicker;
  return typeof fn === 'function' ? (fn.bind(scope) as SavePicker) : null;
}

/** Starts a download of `blob` under `fileName` (the browser's own download flow). */
export function downloadBlob(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  doc.body.append(a);
  a.click();
  a.remove();
  // The download has its own reference by now; give slow browsers a moment anyway.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function downloadTarget(opts: SaveOptions, doc?: Document): SaveTarget {
  let parts: Blob[] = [];
  return {
    kind: 'download',
    async write(piece) {
      parts.push(typeof piece === 'string' ? new Blob([piece]) : piece);
    },
    async close() {
      downloadBlob(new Blob(parts, { type: opts.mime }), opts.fileName, doc);
      parts = [];
    },
    async abort() {
      parts = [];
    },
  };
}

/**
 * Call from the click handler, before any await: the save dialog needs the user's gesture. Resolves
 * null when the user closes the dialog without choosing a file.
 */
export async function openSaveTarget(opts: SaveOptions, scope: unknown = globalThis): Promise<SaveTarget | null> {
  const show = picker(scope);
  if (!show) return downloadTarget(opts);
  let handle: Awaited<ReturnType<SavePicker>>;
  try {
    handle = await show({ suggestedName: opts.fileName, types: [{ description: opts.description, accept: { [opts.mime]: [opts.extension] } }] });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return null;
    throw err;
  }
  const writable = await handle.createWritable();
  return {
    kind: 'picker',
    write: (piece) => writable.write(piece),
    close: () => writable.close(),
    abort: () => writable.abort(),
  };
}
