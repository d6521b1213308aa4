import { z } from 'zod';
import { MEMORY_CATEGORIES, MEMORY_SOURCES } from '../../domain/memory';

/**
 * Input pieces of the memory calls (issue 4), shared by the contract and the tests. Limits a setting
 * decides (content ≤ memory.atomic_content_max_length) are checked again by the handler with the
 * current value; the static limits here are the setting's own maximum.
 */

export const MAX_VALUE_BYTES = 8 * 1024;
export const MAX_MODEL_ANSWER_CHARS = 64 * 1024;
export const MAX_PROFILE_CHARS = 20_000;

const utf8Bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export const memoryId = z.string().min(1).max(100);
export const memoryCategory = z.enum(MEMORY_CATEGORIES);
export const memorySource = z.enum(MEMORY_SOURCES);
export const memoryScope = z.enum(['global', 'project']);
/** The setting's largest value; the handler enforces the current one. */
export const memoryContent = z.string().trim().min(1).max(4000);
export const memoryTags = z.array(z.string().trim().min(1).max(40)).max(20);
export const memoryConfidence = z.number().min(0).max(1);
/** Any JSON, at most 8 KB serialized. */
export const memoryValue = z.json().refine((v) => utf8Bytes(v) <= MAX_VALUE_BYTES, `must be at most ${MAX_VALUE_BYTES} bytes as JSON`);
/** Lower-case dotted words, as the key scheme (domain/memory/keys.ts) writes them. */
export const memoryKey = z
  .string()
  .trim()
  .min(3)
  .max(200)
  .regex(/^(preference|fact|pattern)\.[^\s]+$/u, 'a key starting with preference., fact. or pattern.');
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * The model's memory_update answer as it came (parsed JSON or its raw text): only its size is checked
 * here; candidatesFromModel validates it item by item and reports bad items by index and field.
 */
export const modelAnswer = z
  .unknown()
  .refine((v) => jsonLength(v) <= MAX_MODEL_ANSWER_CHARS, `must be JSON of at most ${MAX_MODEL_ANSWER_CHARS} characters`);
export const profileContent = z.string().max(MAX_PROFILE_CHARS);
