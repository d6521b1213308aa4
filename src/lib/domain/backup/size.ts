import { EngineError } from '../errors';
import { MAX_BACKUP_BYTES } from './limits';

/** Bytes `text` takes as UTF-8 (what the file on disk holds), without encoding it. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/**
 * An export that could not be imported back is refused (limits.ts MAX_BACKUP_BYTES): a backup that
 * cannot be restored is no backup. The person is pointed at a smaller scope or the database file.
 */
export function tooLargeToRestore(bytes: number, maxBytes = MAX_BACKUP_BYTES): EngineError {
  return new EngineError(
    'INVALID_ARGUMENT',
    `Invalid \`scope\`: this export would be about ${mb(bytes)} MB, and Engram imports files of up to ${mb(maxBytes)} MB, so it could not be restored. Export a project or a conversation, or the database file, instead. Nothing was exported.`,
    { fields: ['scope'], reason: 'too-large', bytes, maxBytes },
  );
}
