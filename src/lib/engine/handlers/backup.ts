import type { Services } from '../services';
import type { Handlers } from './index';

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
  | 'backup.importDbFile';

export function backupHandlers(s: Services): Handlers<BackupMethod> {
  const b = s.backup;
  return {
    'backup.exportBegin': (input) => b.exports.begin(input.scope),
    'backup.exportChunk': (input) => b.exports.chunk(input.exportId, input.maxChars),
    'backup.exportCancel': (input) => ({ canceled: b.exports.cancel(input.exportId) }),
    'backup.importPreview': (input) => b.imports.preview(input),
    'backup.importApply': (input) => {
      const result = b.imports.apply(input.token, input.mode);
      // Working memories of conversations a replace removed go with them.
      s.workingMemory.prune();
      return result;
    },
    'backup.importFiles': (input) => b.imports.applyFiles(input.token),
    'backup.importDiscard': (input) => ({ discarded: b.imports.discard(input.token) }),
    'backup.exportDbFile': () => b.exportDbFile(),
    'backup.checkDbFile': (input) => b.checkDbFile(input.file),
    'backup.importDbFile': async (input) => {
      const result = await b.importDbFile(input.file);
      s.workingMemory.prune();
      return result;
    },
  };
}
