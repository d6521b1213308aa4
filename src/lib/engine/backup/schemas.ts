import { z } from 'zod';
import { exportScopeSchema } from '../../domain/backup/format';

/** Input pieces of the backup calls (issue 6), shared by the contract and the tests. */
export const scope = exportScopeSchema;
export const token = z.string().min(1).max(100);
export const mode = z.enum(['merge', 'replace']);
/** A File or Blob, structured-cloned from the page (a File chosen in the file dialog is a Blob). */
export const file = z.instanceof(Blob, { message: 'expected a file' });
/** How many characters an export chunk may hold before it is returned (the last row may overrun it). */
export const chunkChars = z.number().int().min(16 * 1024).max(16 * 1024 * 1024).default(1024 * 1024);
/** false: validate and plan a file without counting what it would change (no write lock; issue 13). */
export const dryRun = z.boolean().default(true);
