import { MARKDOWN_LABELS, type MarkdownLocale } from './labels';

/**
 * Exports people can read (issue 14 item 4): a conversation, or a project's whole memory, as Markdown,
 * beside the JSON backup. Pure: the engine gathers the records, this lays them out. A conversation's
 * layout is one the log reader (logs.ts) reads back, so `engram import --from logs` takes it in again:
 *
 *   # Title
 *   **User** · 2026-01-17 10:30:05 UTC
 *
 *   text …
 *
 * Message text is written as it is (a reply's own Markdown stays Markdown); titles and one-line fields
 * are flattened to one line so they cannot break the layout.
 */
export interface MdMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
}
export interface MdSession {
  id: string;
  title: string;
  snippet: string;
  createdAt: number;
  lastActive: number;
  turnCount: number;
}
export interface MdSummary {
  startTurn: number;
  endTurn: number;
  summary: string;
}
export interface MdMemory {
  content: string;
  category: string;
  confidence: number;
  tags: string[];
  updatedAt: number;
}
export interface MdRule {
  rule: string;
  category: string;
  confidence: number;
  userConfirmed: boolean;
}
export interface MdFile {
  path: string;
  content: string;
}

/** `2026-01-17 10:30:05 UTC`: a reader's form the log reader parses back. */
export const mdTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function conversationMarkdown(opts: { session: MdSession; messages: readonly MdMessage[]; locale: MarkdownLocale }): string {
  const L = MARKDOWN_LABELS[opts.locale];
  const { session } = opts;
  const out = [
    `# ${oneLine(session.title) || L.untitled}`,
    '',
    `${L.conversation}: \`${session.id}\` · ${L.started}: ${mdTime(session.createdAt)} · ${L.messages}: ${opts.messages.length}`,
    '',
    '---',
    '',
  ];
  for (const m of opts.messages) out.push(`**${L[m.role]}** · ${mdTime(m.createdAt)}`, '', m.content.trim(), '');
  return `${out.join('\n').trimEnd()}\n`;
}

function memorySection(L: (typeof MARKDOWN_LABELS)[MarkdownLocale], memories: readonly MdMemory[]): string[] {
  const out = [`## ${L.memories} (${memories.length})`, ''];
  if (memories.length === 0) return [...out, L.none, ''];
  const byCategory = new Map<string, MdMemory[]>();
  for (const m of memories) byCategory.set(m.category, [...(byCategory.get(m.category) ?? []), m]);
  for (const [category, items] of [...byCategory.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`### ${category}`, '');
    for (const m of items) {
      const tags = m.tags.length ? ` · ${m.tags.map((t) => `#${oneLine(t)}`).join(' ')}` : '';
      out.push(`- ${oneLine(m.content)} _(${L.confidence} ${m.confidence.toFixed(2)} · ${mdTime(m.updatedAt)}${tags})_`);
    }
    out.push('');
  }
  return out;
}

/** Everything Engram remembers of one writing project: memories, learned preferences, setting files, conversations. */
export function projectMemoryMarkdown(opts: {
  project: { id: string; name: string };
  memories: readonly MdMemory[];
  rules: readonly MdRule[];
  files: readonly MdFile[];
  sessions: readonly (MdSession & { summaries: readonly MdSummary[] })[];
  exportedAt: number;
  locale: MarkdownLocale;
}): string {
  const L = MARKDOWN_LABELS[opts.locale];
  const out = [`# ${oneLine(opts.project.name)} — ${L.projectMemory}`, '', `${L.exported} · ${mdTime(opts.exportedAt)}`, ''];
  out.push(...memorySection(L, opts.memories));
  out.push(`## ${L.rules} (${opts.rules.length})`, '');
  if (opts.rules.length === 0) out.push(L.none, '');
  for (const r of opts.rules) out.push(`- ${oneLine(r.rule)} _(${r.category} · ${L.confidence} ${r.confidence.toFixed(2)}${r.userConfirmed ? ` · ${L.confirmed}` : ''})_`);
  if (opts.rules.length) out.push('');
  out.push(`## ${L.files} (${opts.files.length})`, '');
  if (opts.files.length === 0) out.push(L.none, '');
  for (const f of opts.files) out.push(`### \`${f.path}\``, '', f.content.trim(), '');
  out.push(...sessionsSection(L, opts.sessions));
  return `${out.join('\n').trimEnd()}\n`;
}

function sessionsSection(L: (typeof MARKDOWN_LABELS)[MarkdownLocale], sessions: readonly (MdSession & { summaries: readonly MdSummary[] })[]): string[] {
  const out = [`## ${L.conversations} (${sessions.length})`, ''];
  if (sessions.length === 0) return [...out, L.none, ''];
  for (const s of sessions) {
    out.push(`### ${oneLine(s.title) || L.untitled}`, '', `\`${s.id}\` · ${mdTime(s.createdAt)} – ${mdTime(s.lastActive)} · ${s.turnCount} ${L.turns}`, '');
    if (s.snippet) out.push(`> ${oneLine(s.snippet)}`, '');
    for (const sum of s.summaries) out.push(`- ${L.summaries} ${sum.startTurn}–${sum.endTurn}: ${oneLine(sum.summary)}`);
    if (s.summaries.length) out.push('');
  }
  return out;
}

/** All long-term memory and the profile (no project). */
export function memoryMarkdown(opts: { memories: readonly MdMemory[]; profile: string; exportedAt: number; locale: MarkdownLocale }): string {
  const L = MARKDOWN_LABELS[opts.locale];
  const out = [`# ${L.allMemory}`, '', `${L.exported} · ${mdTime(opts.exportedAt)}`, '', `## ${L.profile}`, '', opts.profile.trim() || L.none, ''];
  out.push(...memorySection(L, opts.memories));
  return `${out.join('\n').trimEnd()}\n`;
}
