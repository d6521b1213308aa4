import type { ProfileHint, ProfileSection } from './types';
import { classifyProfileLine, localeOf } from './profile-slots';
import { normaliseText } from './text-norm';

/**
 * The user profile (seed 000 "用户画像"): a visible, editable Markdown document with three list sections
 * and free notes. The engine keeps its versions (undo); these are the pure document operations.
 *
 *   ## Reply style        ## 回复风格
 *   - Answer length: concise
 *   ## Language           ## 语言习惯
 *   ## Background         ## 背景
 *   ## Notes              ## 备注
 *   free text …
 *
 * Nothing the user types is lost: list lines without a bullet become items, and text before the first
 * heading or under a heading we do not know is kept verbatim in `notes`.
 */

export type ProfileLocale = 'en' | 'zh-CN';

export interface ProfileDocument {
  sections: { reply_style: string[]; language: string[]; background: string[]; notes: string };
  /** The language of the headings found, when there were any. */
  locale?: ProfileLocale;
}

type Part = ProfileSection | 'notes';

const HEADINGS: Readonly<Record<Part, Record<ProfileLocale, string>>> = {
  reply_style: { en: 'Reply style', 'zh-CN': '回复风格' },
  language: { en: 'Language', 'zh-CN': '语言习惯' },
  background: { en: 'Background', 'zh-CN': '背景' },
  notes: { en: 'Notes', 'zh-CN': '备注' },
};

/** Headings a user might type for each part, in either language. */
const ALIASES: readonly { part: Part; locale: ProfileLocale; titles: readonly string[] }[] = [
  { part: 'reply_style', locale: 'en', titles: ['reply style', 'response style', 'style'] },
  { part: 'reply_style', locale: 'zh-CN', titles: ['回复风格', '回答风格', '风格'] },
  { part: 'language', locale: 'en', titles: ['language', 'language habits', 'languages'] },
  { part: 'language', locale: 'zh-CN', titles: ['语言习惯', '语言'] },
  { part: 'background', locale: 'en', titles: ['background', 'about me'] },
  { part: 'background', locale: 'zh-CN', titles: ['背景', '主要背景', '关于我'] },
  { part: 'notes', locale: 'en', titles: ['notes', 'other'] },
  { part: 'notes', locale: 'zh-CN', titles: ['备注', '其他'] },
];

const LIST_PARTS: readonly ProfileSection[] = ['reply_style', 'language', 'background'];
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/u;
const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/u;

function recogniseHeading(line: string): { part: Part; locale: ProfileLocale } | null {
  const m = HEADING.exec(line);
  if (!m) return null;
  const title = normaliseText(m[1]!).replace(/[:：]$/u, '');
  const hit = ALIASES.find((a) => a.titles.includes(title));
  return hit ? { part: hit.part, locale: hit.locale } : null;
}

export function emptyProfile(): ProfileDocument {
  return { sections: { reply_style: [], language: [], background: [], notes: '' } };
}

export function parseProfile(text: string): ProfileDocument {
  const doc = emptyProfile();
  const notes: string[] = [];
  const votes = { en: 0, 'zh-CN': 0 };
  let current: Part = 'notes';
  for (const line of text.replace(/\r\n?/gu, '\n').split('\n')) {
    const heading = recogniseHeading(line);
    if (heading) {
      current = heading.part;
      votes[heading.locale]++;
      continue;
    }
    if (HEADING.test(line)) {
      // A heading we do not know starts free text: keep it and what follows verbatim.
      current = 'notes';
      notes.push(line);
      continue;
    }
    if (current === 'notes') {
      notes.push(line);
      continue;
    }
    const item = line.replace(BULLET, '').trim();
    if (item !== '') doc.sections[current].push(item);
  }
  doc.sections.notes = trimBlankLines(notes).join('\n');
  if (votes.en + votes['zh-CN'] > 0) doc.locale = votes['zh-CN'] > votes.en ? 'zh-CN' : 'en';
  return doc;
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  while (end > start && lines[end - 1]!.trim() === '') end--;
  return lines.slice(start, end).map((l) => l.replace(/\s+$/u, ''));
}

/** An item is one line: inner line breaks become spaces (the document is line-based). */
function cleanItem(item: string): string {
  return item.replace(/\s*[\r\n]+\s*/gu, ' ').trim();
}

export function renderProfile(doc: ProfileDocument, locale: ProfileLocale): string {
  const blocks = LIST_PARTS.map((part) => {
    const items = doc.sections[part].map(cleanItem).filter((i) => i !== '');
    return [`## ${HEADINGS[part][locale]}`, ...items.map((i) => `- ${i}`)].join('\n');
  });
  const notes = trimBlankLines(doc.sections.notes.replace(/\r\n?/gu, '\n').split('\n')).join('\n');
  blocks.push(notes === '' ? `## ${HEADINGS.notes[locale]}` : `## ${HEADINGS.notes[locale]}\n${notes}`);
  return `${blocks.join('\n\n')}\n`;
}

export interface ProfileChange {
  section: ProfileSection;
  action: 'added' | 'replaced' | 'removed';
  /** The line that was replaced or removed (shown in the "what changed" view, and for undo). */
  previous?: string;
  text?: string;
}

/**
 * Writes hints into the profile. Idempotent: a hint whose line is already there changes nothing, and
 * when nothing changes the text comes back untouched (not re-rendered). A hint for a key that already
 * has a line (same slot: "Name: Sam" vs "Name: Alex", or "回答尽量简洁" vs "回答长度：详细") replaces that
 * line in place. Of several hints for the same key in one call, the last one wins.
 */
export function applyProfileHints(
  text: string,
  hints: readonly ProfileHint[],
): { text: string; changed: boolean; changes: ProfileChange[] } {
  const doc = parseProfile(text);
  const changes: ProfileChange[] = [];
  for (const hint of lastPerKey(hints)) {
    const lines = doc.sections[hint.section];
    const line = cleanItem(hint.text);
    const key = hint.key ?? classifyProfileLine(line, hint.section);
    const same = lines.findIndex((l) => normaliseText(l) === normaliseText(line));
    const slot = key === null ? -1 : lines.findIndex((l) => classifyProfileLine(l, hint.section) === key);
    if (hint.remove) {
      const at = slot >= 0 ? slot : same;
      if (at < 0) continue;
      changes.push({ section: hint.section, action: 'removed', previous: lines[at]! });
      lines.splice(at, 1);
    } else if (line === '' || same >= 0) {
      continue;
    } else if (slot >= 0) {
      changes.push({ section: hint.section, action: 'replaced', previous: lines[slot]!, text: line });
      lines[slot] = line;
    } else {
      changes.push({ section: hint.section, action: 'added', text: line });
      lines.push(line);
    }
  }
  if (changes.length === 0) return { text, changed: false, changes };
  const locale = doc.locale ?? localeOf(hints.map((h) => h.text).join(''));
  return { text: renderProfile(doc, locale), changed: true, changes };
}

function lastPerKey(hints: readonly ProfileHint[]): ProfileHint[] {
  const out = new Map<string, ProfileHint>();
  for (const hint of hints) {
    const key = hint.key ?? classifyProfileLine(cleanItem(hint.text), hint.section) ?? `text:${normaliseText(hint.text)}`;
    out.delete(`${hint.section}|${key}`);
    out.set(`${hint.section}|${key}`, hint);
  }
  return [...out.values()];
}

/**
 * Takes what memories put into the profile back out when the memories go (deleted in the manager,
 * undone from the chat, cleared). Only a line still reading exactly as the memory wrote it is touched —
 * a line the user edited is theirs and stays:
 *
 *   gone hint's line present? ─no─▶ nothing
 *        │yes
 *        ├─ a `back` memory holds the same key ─▶ its line replaces it ("称呼：小明" → "称呼：小红")
 *        └─ otherwise ─────────────────────────▶ the line is removed
 *   `back` hints whose key has no line yet are added (an undone retraction brings its line back).
 */
export function syncProfileHints(
  text: string,
  change: { gone: readonly ProfileHint[]; back: readonly ProfileHint[] },
): { text: string; changed: boolean; changes: ProfileChange[] } {
  const doc = parseProfile(text);
  const changes: ProfileChange[] = [];
  const keyOf = (h: ProfileHint) => h.key ?? classifyProfileLine(cleanItem(h.text), h.section);
  const back = change.back.filter((h) => !h.remove && cleanItem(h.text) !== '');
  const used = new Set<ProfileHint>();
  for (const hint of change.gone) {
    if (hint.remove) continue;
    const lines = doc.sections[hint.section];
    const at = lines.findIndex((l) => normaliseText(l) === normaliseText(cleanItem(hint.text)));
    if (at < 0) continue;
    const key = keyOf(hint);
    const next = key === null ? undefined : back.find((b) => b.section === hint.section && keyOf(b) === key);
    if (next) {
      used.add(next);
      const line = cleanItem(next.text);
      if (normaliseText(line) === normaliseText(lines[at]!)) continue;
      changes.push({ section: hint.section, action: 'replaced', previous: lines[at]!, text: line });
      lines[at] = line;
    } else {
      changes.push({ section: hint.section, action: 'removed', previous: lines[at]! });
      lines.splice(at, 1);
    }
  }
  for (const hint of back) {
    if (used.has(hint)) continue;
    const lines = doc.sections[hint.section];
    const key = keyOf(hint);
    const line = cleanItem(hint.text);
    const taken = lines.some((l) => normaliseText(l) === normaliseText(line) || (key !== null && classifyProfileLine(l, hint.section) === key));
    if (taken) continue;
    changes.push({ section: hint.section, action: 'added', text: line });
    lines.push(line);
  }
  if (changes.length === 0) return { text, changed: false, changes };
  const locale = doc.locale ?? localeOf([...change.gone, ...back].map((h) => h.text).join(''));
  return { text: renderProfile(doc, locale), changed: true, changes };
}
