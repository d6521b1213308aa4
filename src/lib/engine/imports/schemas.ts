import { z } from 'zod';
import { IMPORT_SOURCES, MAX_LOG_FILES } from '../../domain/imports';
import { file } from '../backup/schemas';

/** Input pieces of the import calls (issue 14), shared by the contract, the CLI and the tests. */
export const source = z.enum([...IMPORT_SOURCES, 'auto']);
export const token = z.string().min(1).max(100);
/** The files chosen (a log folder: each file with its path inside the folder as `name`). */
export const files = z.array(z.strictObject({ name: z.string().min(1).max(1000), file })).min(1).max(MAX_LOG_FILES);
const id = z.string().min(1).max(100);
export const markdownScope = z.union([
  z.strictObject({ kind: z.literal('session'), id }),
  z.strictObject({ kind: z.literal('project'), id }),
  z.strictObject({ kind: z.literal('memories') }),
]);
