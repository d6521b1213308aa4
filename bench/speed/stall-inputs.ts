import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openNative, writeMemoryBackup } from './native';

/**
 * What the stalls runs read from their served root (stall-ab.ts, stall-trace.ts): one native prefill per size
 * (`prefill-<turns>.sqlite3`) and the memory backup the import applies (`import-<memories>.json`), each made once
 * and kept, so every variant and run starts from the same bytes. Returns the backup's file name.
 */
export async function ensureStallInputs(root: string, sizes: Iterable<number>, opts: { seed: number; importMemories: number; log?: (line: string) => void }): Promise<string> {
  for (const turns of new Set(sizes)) {
    const file = join(root, `prefill-${turns}.sqlite3`);
    if (existsSync(file)) continue;
    opts.log?.(`native prefill of ${turns.toLocaleString('en')} turns`);
    const native = openNative({ path: join(root, `native-${turns}.sqlite3`), seed: opts.seed, total: turns });
    await native.fillTo(turns);
    native.snapshot(file);
    rmSync(join(root, `native-${turns}.sqlite3`), { force: true });
  }
  const importFile = `import-${opts.importMemories}.json`;
  if (!existsSync(join(root, importFile))) await writeMemoryBackup(join(root, importFile), { seed: opts.seed, count: opts.importMemories });
  return importFile;
}
