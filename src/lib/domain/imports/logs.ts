import { z } from 'zod';
import { parseJsonSafely } from '../backup/safe-json';
import { invalidArgument } from '../validation';
import { SPEAKERS } from './labels';
import { conversationId } from './stable-id';
import { cleanText, cleanTitle } from './text';
import { parseLooseDate } from './times';
import { emptySkips, type ImportedMessage, type ParsedConversation } from './types';

/**
 * Seed 002 `memory_import --from-logs <dir>`: one plain conversation log per file. The seed names no
 * format, so the common ones are read:
 *
 *   text / Markdown   a speaker line opens a message; the lines after it are its text
 *                       user: …          [2026-01-17 10:30] assistant: …        用户：…
 *                       **User** · 2026-01-17 10:30:05 UTC      (Engram's own Markdown export)
 *                       ## Assistant
 *                     a `# Title` before the first speaker names the conversation
 *   .jsonl            one {"role","content"[,"created_at"|"timestamp"|"time"]} per line (`store --stdin`'s shape)
 *
 * A file with no speaker at all is not a conversation log: it is reported as skipped, not guessed at.
 */
const names = (list: readonly string[]) => list.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const ROLE_OF = new Map<string, 'user' | 'assistant'>([
  ...SPEAKERS.user.map((s) => [s, 'user'] as const),
  ...SPEAKERS.assistant.map((s) => [s, 'assistant'] as const),
]);
const LABEL = `(?<label>${names([...SPEAKERS.user, ...SPEAKERS.assistant])})`;
const STAMP = String.raw`(?:\[(?<stamp>[^\]]{4,40})\]\s*)?`;
/** `user: text`, `**User**: text`, `[time] 用户：text` */
const INLINE = new RegExp(String.raw`^\s*${STAMP}(?:[>#]+\s*)?(?:\*\*|__)?${LABEL}(?:\*\*|__)?\s*[:：]\s?(?<rest>.*)$`, 'iu');
/** `**User** · time`, `## Assistant`, `**用户**` alone on a line */
const HEADING = new RegExp(String.raw`^\s*${STAMP}(?:#{1,6}\s*(?:\*\*|__)?|\*\*|__)${LABEL}(?:\*\*|__)?\s*(?:[·—–-]\s*(?<time>.{4,40}))?\s*$`, 'iu');

const jsonlTurn = z.looseObject({
  role: z.string(),
  content: z.string(),
  created_at: z.union([z.string(), z.number()]).optional(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  time: z.union([z.string(), z.number()]).optional(),
});

const roleOf = (label: string) => ROLE_OF.get(label.toLowerCase()) ?? null;
const stampTime = (s: string | undefined) => (s ? parseLooseDate(s.replace(/\s*(UTC|GMT|Z)$/i, '').trim()) : null);

function parseJsonl(text: string, field: string): ImportedMessage[] | null {
  const out: ImportedMessage[] = [];
  let lineNo = 0;
  for (const raw of text.split(/\r?\n/)) {
    lineNo++;
    if (!raw.trim()) continue;
    const res = jsonlTurn.safeParse(parseJsonSafely(raw, undefined, `${field} line ${lineNo}`));
    if (!res.success) throw invalidArgument(res.error, `${field} line ${lineNo}`);
    const role = roleOf(res.data.role);
    const content = cleanText(res.data.content);
    if (!role || !content) continue;
    out.push({ role, content, createdAt: parseLooseDate(res.data.created_at ?? res.data.timestamp ?? res.data.time) });
  }
  return out;
}

function parseText(text: string): { title: string; messages: ImportedMessage[] } {
  const messages: ImportedMessage[] = [];
  let title = '';
  let current: { role: 'user' | 'assistant'; lines: string[]; createdAt: number | null } | null = null;
  const close = () => {
    if (!current) return;
    const content = cleanText(current.lines.join('\n').replace(/\n-{3,}\s*$/, ''));
    if (content) messages.push({ role: current.role, content, createdAt: current.createdAt });
    current = null;
  };
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const m = HEADING.exec(line) ?? INLINE.exec(line);
    const role = m?.groups?.label ? roleOf(m.groups.label) : null;
    if (m && role) {
      close();
      current = { role, lines: m.groups?.rest ? [m.groups.rest] : [], createdAt: stampTime(m.groups?.stamp) ?? stampTime(m.groups?.time) };
      continue;
    }
    if (current) current.lines.push(line);
    else if (!title && /^#\s+\S/.test(line)) title = line.replace(/^#\s+/, '');
  }
  close();
  return { title, messages };
}

/** `path`: the file's path inside the imported folder — the conversation's identity. */
export function parseConversationLog(text: string, opts: { path: string; field?: string }): ParsedConversation | null {
  const field = opts.field ?? 'file';
  const skipped = emptySkips();
  const jsonl = /\.jsonl$/i.test(opts.path);
  const parsed = jsonl ? { title: '', messages: parseJsonl(text, field) ?? [] } : parseText(text);
  if (parsed.messages.length === 0) return null;
  const base = opts.path.split('/').pop() ?? opts.path;
  return {
    conversation: {
      id: conversationId('log', null, `log\u0000${opts.path}`),
      title: cleanTitle(parsed.title || base.replace(/\.(md|markdown|txt|log|jsonl)$/i, '')),
      createdAt: null,
      messages: parsed.messages,
    },
    skipped,
  };
}

/** The files of a log folder that are read; others (images, binaries) are skipped. */
export const isLogFile = (path: string) => /\.(md|markdown|txt|log|jsonl)$/i.test(path);
