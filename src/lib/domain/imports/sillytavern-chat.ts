import { z } from 'zod';
import { EngineError } from '../errors';
import { invalidArgument } from '../validation';
import { parseJsonSafely } from '../backup/safe-json';
import { conversationId, stableKey } from './stable-id';
import { cleanText, cleanTitle } from './text';
import { parseLooseDate } from './times';
import { emptySkips, type ImportedMessage, type ParsedConversation } from './types';

/**
 * A SillyTavern chat file (`.jsonl`): the first line is the chat's header (`user_name`,
 * `character_name`, `create_date`, `chat_metadata`), each further line one message (`name`,
 * `is_user`, `is_system`, `send_date`, `mes` — the swipe the person kept). The person's lines become
 * user messages, the character's assistant messages; system and narrator lines are left out.
 *
 * The header names the chat, so the same chat file imported again maps to the same conversation
 * whatever the file is called.
 */
const header = z.looseObject({
  user_name: z.string().optional(),
  character_name: z.string().optional(),
  create_date: z.union([z.string(), z.number()]).optional(),
});
const line = z.looseObject({
  name: z.string().optional(),
  is_user: z.boolean().optional(),
  is_system: z.boolean().optional(),
  send_date: z.union([z.string(), z.number()]).nullable().optional(),
  mes: z.string(),
  extra: z.looseObject({ type: z.string().optional(), isSmallSys: z.boolean().optional() }).nullable().optional(),
});

const isHeader = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !('mes' in v) && ('character_name' in v || 'user_name' in v || 'chat_metadata' in v);

export function parseSillyTavernChat(text: string, opts: { fileName: string; field?: string }): ParsedConversation {
  const field = opts.field ?? 'file';
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const skipped = emptySkips();
  const messages: ImportedMessage[] = [];
  let head: z.infer<typeof header> | null = null;
  let lineNo = 0;
  for (const raw of lines) {
    lineNo++;
    if (!raw.trim()) continue;
    const value = parseJsonSafely(raw, undefined, `${field} line ${lineNo}`);
    if (head === null && messages.length === 0 && isHeader(value)) {
      const h = header.safeParse(value);
      if (!h.success) throw invalidArgument(h.error, `${field} line ${lineNo}`);
      head = h.data;
      continue;
    }
    const res = line.safeParse(value);
    if (!res.success) throw invalidArgument(res.error, `${field} line ${lineNo}`);
    const m = res.data;
    if (m.is_system || m.extra?.type === 'narrator' || m.extra?.isSmallSys) {
      skipped.system++;
      continue;
    }
    const content = cleanText(m.mes);
    if (!content) {
      skipped.empty++;
      continue;
    }
    messages.push({ role: m.is_user ? 'user' : 'assistant', content, createdAt: parseLooseDate(m.send_date) });
  }
  if (head === null && messages.length === 0)
    throw new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: this is not a SillyTavern chat (no header, no messages). Nothing was imported.`, {
      fields: [field],
    });
  const character = head?.character_name ?? '';
  const created = parseLooseDate(head?.create_date) ?? messages[0]?.createdAt ?? null;
  const identity =
    head?.create_date !== undefined
      ? `${head.user_name ?? ''}\u0000${character}\u0000${String(head.create_date)}`
      : `${opts.fileName}\u0000${messages[0]?.content ?? ''}`;
  const title = character ? `${character}${created === null ? '' : ` · ${new Date(created).toISOString().slice(0, 10)}`}` : opts.fileName.replace(/\.jsonl$/i, '');
  return {
    conversation: { id: conversationId('st', null, `st\u0000${stableKey(identity)}`), title: cleanTitle(title), createdAt: created, messages },
    skipped,
  };
}
