import { z } from 'zod';
import { EngineError } from '../errors';
import { invalidArgument } from '../validation';
import { cleanTitle } from './text';
import type { ImportedFile } from './types';

/**
 * SillyTavern World Info (a lorebook) and character cards → a writing project's setting files:
 *
 *   World Info  { entries: { "<uid>": { key[], comment, content, disable } } }   ─▶ .engram/world/<entry>.md
 *   card book   { entries: [ { keys[], name | comment, content, enabled } ] }    ─▶ .engram/world/<entry>.md
 *   character card (chara_card_v2/v3 `data`, or v1 flat: name, description,
 *   personality, scenario, first_mes, mes_example) ─▶ .engram/characters/<name>.md (+ its book ─▶ world/)
 *
 * Entries carry no type, so a lorebook's entries are world notes; the character files come from cards.
 * Disabled entries are imported too (they are still the author's lore) and marked as such.
 */
const worldEntry = z.looseObject({
  uid: z.union([z.number(), z.string()]).optional(),
  id: z.union([z.number(), z.string()]).optional(),
  key: z.array(z.string()).optional(),
  keys: z.array(z.string()).optional(),
  keysecondary: z.array(z.string()).optional(),
  secondary_keys: z.array(z.string()).optional(),
  comment: z.string().optional(),
  name: z.string().optional(),
  content: z.string(),
  disable: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
const book = z.looseObject({
  name: z.string().optional(),
  entries: z.union([z.record(z.string(), worldEntry), z.array(worldEntry)]),
});
const cardData = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  personality: z.string().optional(),
  scenario: z.string().optional(),
  first_mes: z.string().optional(),
  mes_example: z.string().optional(),
  creator_notes: z.string().optional(),
  character_book: book.nullable().optional(),
});
const cardV2 = z.looseObject({ spec: z.string().regex(/^chara_card_v\d$/), data: cardData });

type Entry = z.infer<typeof worldEntry>;

export interface ParsedLorebook {
  /** A name for the project the files go to, when the person picks none. */
  name: string;
  files: ImportedFile[];
}

/** A file name from a title: letters of any script, digits, `-`; never a path. */
export function slugify(title: string): string {
  const s = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return Array.from(s).slice(0, 60).join('') || 'entry';
}

function uniquePath(folder: ImportedFile['folder'], title: string, taken: Set<string>): string {
  const base = slugify(title);
  let path = `.engram/${folder}/${base}.md`;
  for (let n = 2; taken.has(path); n++) path = `.engram/${folder}/${base}-${n}.md`;
  taken.add(path);
  return path;
}

function entryFile(e: Entry, index: number, taken: Set<string>): ImportedFile | null {
  const content = e.content.replace(/\r\n?/g, '\n').trim();
  if (!content) return null;
  const keys = [...(e.key ?? e.keys ?? [])].map((k) => k.trim()).filter(Boolean);
  const secondary = [...(e.keysecondary ?? e.secondary_keys ?? [])].map((k) => k.trim()).filter(Boolean);
  const title = cleanTitle(e.comment || e.name || keys[0] || `entry ${e.uid ?? e.id ?? index + 1}`);
  const disabled = e.disable === true || e.enabled === false;
  const lines = [`# ${title}`, ''];
  if (keys.length) lines.push(`Keys: ${keys.join(', ')}`);
  if (secondary.length) lines.push(`Also: ${secondary.join(', ')}`);
  if (disabled) lines.push('(disabled in SillyTavern)');
  if (keys.length || secondary.length || disabled) lines.push('');
  lines.push(content, '');
  return { folder: 'world', path: uniquePath('world', title, taken), content: lines.join('\n') };
}

function bookFiles(b: z.infer<typeof book>, taken: Set<string>): ImportedFile[] {
  const entries = Array.isArray(b.entries) ? b.entries : Object.values(b.entries);
  return entries.flatMap((e, i) => entryFile(e, i, taken) ?? []);
}

const SECTIONS: [keyof z.infer<typeof cardData>, string][] = [
  ['description', 'Description'],
  ['personality', 'Personality'],
  ['scenario', 'Scenario'],
  ['first_mes', 'First message'],
  ['mes_example', 'Example dialogue'],
  ['creator_notes', 'Creator notes'],
];

function characterFile(card: z.infer<typeof cardData>, taken: Set<string>): ImportedFile {
  const name = cleanTitle(card.name);
  const lines = [`# ${name}`, ''];
  for (const [key, heading] of SECTIONS) {
    const text = (card[key] as string | undefined)?.replace(/\r\n?/g, '\n').trim();
    if (text) lines.push(`## ${heading}`, '', text, '');
  }
  return { folder: 'characters', path: uniquePath('characters', name, taken), content: lines.join('\n') };
}

export function parseLorebook(value: unknown, opts: { fileName: string; field?: string }): ParsedLorebook {
  const field = opts.field ?? 'file';
  const taken = new Set<string>();
  const fallbackName = cleanTitle(opts.fileName.replace(/\.(json|png)$/i, '')) || 'Lorebook';
  if (typeof value === 'object' && value !== null && 'spec' in value) {
    const res = cardV2.safeParse(value);
    if (!res.success) throw invalidArgument(res.error, field);
    const { data } = res.data;
    return { name: cleanTitle(data.name), files: [characterFile(data, taken), ...(data.character_book ? bookFiles(data.character_book, taken) : [])] };
  }
  if (typeof value === 'object' && value !== null && 'entries' in value) {
    const res = book.safeParse(value);
    if (!res.success) throw invalidArgument(res.error, field);
    return { name: cleanTitle(res.data.name) || fallbackName, files: bookFiles(res.data, taken) };
  }
  if (typeof value === 'object' && value !== null && 'first_mes' in value) {
    const res = cardData.safeParse(value);
    if (!res.success) throw invalidArgument(res.error, field);
    return { name: cleanTitle(res.data.name), files: [characterFile(res.data, taken)] };
  }
  throw new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: this is not a SillyTavern World Info file or character card. Nothing was imported.`, {
    fields: [field],
  });
}
