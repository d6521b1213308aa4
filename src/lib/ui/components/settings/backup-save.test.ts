import { describe, expect, it, vi } from 'vitest';
import { downloadBlob, openSaveTarget } from './backup-save';

const OPTS = { fileName: 'engram-backup-2026-01-17.json', mime: 'application/json', description: 'Engram backup', extension: '.json' } as const;

function fakeDocument() {
  const anchor = { href: '', download: '', rel: '', style: { display: '' }, click: vi.fn(), remove: vi.fn() };
  const doc = { createElement: vi.fn(() => anchor), body: { append: vi.fn() } };
  return { doc: doc as unknown as Document, anchor };
}

describe('where a backup is saved', () => {
  it('writes piece by piece into the file chosen in the save dialog', async () => {
    const written: (string | Blob)[] = [];
    const writable = { write: vi.fn(async (p: string | Blob) => void written.push(p)), close: vi.fn(async () => {}), abort: vi.fn(async () => {}) };
    const showSaveFilePicker = vi.fn(async () => ({ createWritable: async () => writable }));
    const target = await openSaveTarget(OPTS, { showSaveFilePicker });
    expect(showSaveFilePicker).toHaveBeenCalledWith({
      suggestedName: OPTS.fileName,
      types: [{ description: 'Engram backup', accept: { 'application/json': ['.json'] } }],
    });
    expect(target?.kind).toBe('picker');
    await target?.write('{"a":');
    await target?.write('1}');
    await target?.close();
    expect(written).toEqual(['{"a":', '1}']);
    expect(writable.close).toHaveBeenCalledOnce();
  });

  it('does nothing when the dialog is closed without a choice', async () => {
    const showSaveFilePicker = async () => {
      throw new DOMException('The user aborted a request.', 'AbortError');
    };
    expect(await openSaveTarget(OPTS, { showSaveFilePicker })).toBeNull();
  });

  it('falls back to one download at the end where there is no save dialog', async () => {
    const target = await openSaveTarget(OPTS, {});
    expect(target?.kind).toBe('download');
  });

  it('downloads a blob under its file name through a temporary link', async () => {
    const { doc, anchor } = fakeDocument();
    downloadBlob(new Blob(['{}'], { type: 'application/json' }), OPTS.fileName, doc);
    expect(anchor.download).toBe(OPTS.fileName);
    expect(anchor.href).toMatch(/^blob:/);
    expect(anchor.click).toHaveBeenCalledOnce();
    expect(anchor.remove).toHaveBeenCalledOnce();
  });
});
