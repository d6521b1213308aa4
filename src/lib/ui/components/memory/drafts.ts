import { MAX_VALUE_BYTES, memoryTags } from '../../../engine/memory/schemas';
import type { MemoryCategory, MemoryRecord } from '../../../domain/memory';
import type { Input } from '../../../engine/protocol/contract';
import { formatJson } from './format';
import type { FormErrors } from './form-errors';

/**
 * The memory forms (edit, add) as plain data, and their translation into engine input. Everything the
 * engine would refuse for a reason the form can see is caught here first, at the field.
 */

export interface EditDraft {
  content: string;
  /** The value as JSON text; unchanged text is not sent. */
  valueText: string;
  /** Comma-separated. */
  tagsText: string;
  category: MemoryCategory;
  /** 0..100, as the number input holds it (null when emptied). */
  confidencePercent: number | null;
}

export interface AddDraft {
  content: string;
  category: MemoryCategory;
  tagsText: string;
}

export type ValueParse = { ok: true; value: unknown } | { ok: false; error: 'required' | 'json' | 'jsonTooBig' };

/** The value textarea: any JSON (a string needs its quotes), at most 8 KB serialized, as the engine allows. */
export function parseValueJson(text: string): ValueParse {
  if (text.trim() === '') return { ok: false, error: 'required' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'json' };
  }
  if (new TextEncoder().encode(JSON.stringify(value)).length > MAX_VALUE_BYTES) return { ok: false, error: 'jsonTooBig' };
  return { ok: true, value };
}

export type TagsParse = { ok: true; tags: string[] } | { ok: false; error: 'tooMany' | 'tooLong' };

/** "a, b，c、a" → ['a', 'b', 'c']: ASCII, full-width and enumeration commas; blanks and repeats dropped. */
export function parseTags(text: string): TagsParse {
  const tags = [...new Set(text.split(/[,，、]/u).map((t) => t.trim()).filter((t) => t !== ''))];
  const checked = memoryTags.safeParse(tags);
  if (checked.success) return { ok: true, tags };
  return { ok: false, error: checked.error.issues.some((i) => i.path.length === 0) ? 'tooMany' : 'tooLong' };
}

export function toEditDraft(memory: MemoryRecord): EditDraft {
  return {
    content: memory.content,
    valueText: formatJson(memory.value),
    tagsText: memory.tags.join(', '),
    category: memory.category,
    confidencePercent: Math.round(memory.confidence * 100),
  };
}

type UpdateInput = Input<'memory.update'>;
export type Built<T> = { ok: true; input: T } | { ok: false; errors: FormErrors };

/**
 * An edit → memory.update with only what changed and `expectedVersion`, so an edit made on a stale copy
 * (another tab, the extractor) is refused as CONFLICT instead of silently overwriting.
 */
export function buildUpdateInput(memory: MemoryRecord, draft: EditDraft): Built<UpdateInput> {
  const errors: FormErrors = {};
  const input: UpdateInput = { id: memory.id, expectedVersion: memory.version };
  const content = draft.content.trim();
  if (content === '') errors.content = { kind: 'required' };
  else if (content !== memory.content) input.content = content;

  if (draft.valueText !== formatJson(memory.value)) {
    const parsed = parseValueJson(draft.valueText);
    if (!parsed.ok) errors.value = { kind: parsed.error, ...(parsed.error === 'jsonTooBig' ? { limit: MAX_VALUE_BYTES } : {}) };
    else if (JSON.stringify(parsed.value) !== JSON.stringify(memory.value)) input.value = parsed.value as UpdateInput['value'];
  }

  const tags = parseTags(draft.tagsText);
  if (!tags.ok) errors.tags = { kind: tags.error };
  else if (tags.tags.join('\u0000') !== memory.tags.join('\u0000')) input.tags = tags.tags;

  if (draft.category !== memory.category) input.category = draft.category;

  const pct = draft.confidencePercent;
  if (pct === null || !Number.isFinite(pct) || pct < 0 || pct > 100) errors.confidence = { kind: 'range' };
  else if (Math.round(pct) !== Math.round(memory.confidence * 100)) input.confidence = Math.round(pct) / 100;

  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, input };
}

/** Whether an update input changes anything beyond naming the memory. */
export function changesSomething(input: UpdateInput): boolean {
  return Object.keys(input).some((k) => k !== 'id' && k !== 'expectedVersion');
}

export const EMPTY_ADD: Readonly<AddDraft> = { content: '', category: 'fact', tagsText: '' };

/** "Add memory": a manual memory (the engine records it as user_stated, confidence 1.0). */
export function buildCreateInput(draft: AddDraft): Built<Input<'memory.create'>> {
  const content = draft.content.trim();
  const tags = parseTags(draft.tagsText);
  const errors: FormErrors = {};
  if (content === '') errors.content = { kind: 'required' };
  if (!tags.ok) errors.tags = { kind: tags.error };
  if (Object.keys(errors).length || !tags.ok) return { ok: false, errors };
  return { ok: true, input: { content, category: draft.category, tags: tags.tags } };
}
