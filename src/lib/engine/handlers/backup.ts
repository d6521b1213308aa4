import type { Services } from '../services';
import { ensureSegmenterVersion } from '../store/fts-reindex';
import type { Handlers } from './index';
import type { TwoStep } from '../protocol/define';
import type { ImportResult } from '../backup';

type BackupMethod =
  | 'backup.exportBegin'
  | 'backup.exportChunk'
  | 'backup.exportCancel'
  | 'backup.importPreview'
  | 'backup.importApply'
  | 'backup.importFiles'
  | 'backup.importDiscard'
  | 'backup.exportDbFile'
  | 'backup.checkDbFile'
  | 'backup.importDbFile'
  | 'backup.importStep'
  | 'backup.importProgress'
  | 'backup.importReading';

export function backupHandlers(s: Services): Handlers<BackupMethod> {
  const b = s.backup;
  return {
    'backup.exportBegin': (input) => b.exports.begin(input.scope),
    'backup.exportChunk': (input) => b.exports.chunk(input.exportId, input.maxChars),
    'backup.exportCancel': (input) => ({ canceled: b.exports.cancel(input.exportId) }),
    'backup.importPreview': (input) => b.imports.preview(input),
    'backup.importApply': (input): TwoStep<{ token: string }, ImportResult> => {
      const steps = b.imports.apply(input.token, input.mode);
      return {
        ...steps,
        then: async (written: { token: string } | null) => {
          const result = await steps.then(written);
          // Working memories of conversations a replace removed go with them.
          s.workingMemory.prune();
          return result;
        },
      };
    },
    'backup.importStep': (input) => {
      const result = b.imports.step(input.token, input.mode, input.maxRows);
      if (result.done) s.workingMemory.prune();
      return result;
    },
    'backup.importFiles': (input) => b.imports.applyFiles(input.token),
    'backup.importDiscard': (input) => ({ discarded: b.imports.discard(input.token) }),
    // How far the import apply in slices is, and how far a preview has read its file (issue 16).
    'backup.importProgress': ({ token }) => b.imports.progress(token),
    'backup.importReading': () => b.imports.reading(),
    'backup.exportDbFile': () => b.exportDbFile(),
    'backup.checkDbFile': (input) => b.checkDbFile(input.file),
    'backup.importDbFile': async (input) => {
      const result = await b.importDbFile(input.file);
      forgetOldDatabase(s);
      return result;
    },
  };
}

const PAGE = 200;

/**
 * After the whole database was replaced, nothing this worker remembers of the old one may stay: working
 * memories go (a conversation the new file also has rebuilds its own from the new turns on demand), and
 * the new file's full-text index is checked against our segmenter (ARCHITECTURE §5: re-index when it
 * changed). Export cursors and staged imports were dropped by the backup service itself.
 */
function forgetOldDatabase(s: Services): void {
  s.workingMemory.prune();
  for (let offset = 0; ; offset += PAGE) {
    const { items } = s.sessions.list({ limit: PAGE, offset, starredOnly: false });
    for (const session of items) s.workingMemory.forget(session.id);
    if (items.length < PAGE) break;
  }
  ensureSegmenterVersion(s.env);
}
