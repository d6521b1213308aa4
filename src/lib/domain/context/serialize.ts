/**
 * Deterministic serialization (seed 004 "确定性序列化"). Every heading, label, marker and placeholder is a
 * fixed string of the prompt's language (prompt-language.ts) that does not depend on the clock or the
 * request: the same static inputs in the same language give byte-identical L0–L3 text. A layer with
 * nothing in it sends nothing (issue 15), except where a seed keeps a fixed placeholder (L2 for skills).
 *
 *   ## Writing preferences                  ← heading (fixed per language)
 *   [Learned writing preferences]           ← fixed header (L2 only)
 *   - <rule> (confidence: 0.87)             ← items, or the fixed placeholder / marker line
 */
import type { LayerId, LayerStatus, ContextItem } from './types';
import { layerTitle, PROMPT_WORDS, type PromptLanguage } from './prompt-language';

export function heading(id: LayerId, lang: PromptLanguage): string {
  return PROMPT_WORDS[lang].headings[id];
}

/** `[Relevant memories: could not be loaded (timed out)]` — the visible gap for a source that could not be read. */
export function unavailableMarker(id: LayerId, status: 'missing' | 'timeout' | 'canceled', lang: PromptLanguage): string {
  const w = PROMPT_WORDS[lang];
  return w.unavailable(layerTitle(id, lang), w.status[status]);
}

/** Shown above what there is when a layer degraded (e.g. 003's built-in default rules). */
export function degradedMarker(id: LayerId, lang: PromptLanguage): string {
  return PROMPT_WORDS[lang].degraded(layerTitle(id, lang));
}

export function isUnavailable(status: LayerStatus): status is 'missing' | 'timeout' | 'canceled' {
  return status === 'missing' || status === 'timeout' || status === 'canceled';
}

/**
 * NFC, LF line ends, no trailing whitespace on any line, no leading/trailing blank lines. Leading
 * indentation (e.g. the full-width spaces that open a Chinese paragraph) is content and stays.
 */
export function normaliseText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/u, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/**
 * The stable key of L0–L3: creation order, then id (UTF-16 order, locale-free). Never a score, an
 * access time or the current time, so the order cannot drift between runs.
 */
export function compareStable(a: ContextItem, b: ContextItem): number {
  const oa = a.order ?? Number.POSITIVE_INFINITY;
  const ob = b.order ?? Number.POSITIVE_INFINITY;
  if (oa !== ob) return oa < ob ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

/** L5's fixed block order: the rolling window, then the task around the selection, then the message. */
const L5_RANK: Record<string, number> = { turn: 0, 'working-memory': 1, before: 2, selection: 3, after: 4, message: 5 };

export function l5Slot(item: ContextItem): string {
  if (item.kind === 'surrounding') return item.meta?.side === 'after' ? 'after' : 'before';
  return item.kind;
}

export function l5Rank(item: ContextItem): number {
  return L5_RANK[l5Slot(item)] ?? 6;
}

export function turnRole(item: ContextItem): 'user' | 'assistant' {
  return item.meta?.role === 'assistant' ? 'assistant' : 'user';
}

const stringMeta = (item: ContextItem, key: string): string | null => {
  const v = item.meta?.[key];
  return typeof v === 'string' && v.trim() !== '' ? v : null;
};

/** An L4 item: its text under a short lead that says where it is from — never an id to echo. */
function retrievedLine(item: ContextItem, lang: PromptLanguage): string {
  const w = PROMPT_WORDS[lang].l4;
  const title = stringMeta(item, 'title');
  if (item.kind === 'rolling-summary' || item.kind === 'compact') return `- ${w.earlier} ${item.text}`;
  if (item.kind === 'summary' && title) return `- ${w.otherConversation(title)} ${item.text}`;
  if (item.kind === 'session-summary' && title) return `- ${w.recentConversation(title)} ${item.text}`;
  return `- ${item.text}`;
}

/**
 * One item as it appears in its layer. L3 cites its project-relative file path (seed 004 "来源引用");
 * nothing else carries an id into the prompt.
 */
export function renderItem(id: LayerId, item: ContextItem, citation: string, lang: PromptLanguage): string {
  switch (id) {
    case 'L0':
    case 'L1':
    case 'L2':
      return item.text;
    case 'L3':
      return `[${citation}]\n${item.text}`;
    case 'L4':
      return retrievedLine(item, lang);
    case 'L5': {
      const w = PROMPT_WORDS[lang];
      if (item.kind === 'turn') return `${w.speaker[turnRole(item)]}: ${item.text}`;
      const label = L5_LABELS[l5Slot(item)];
      return label ? `${w.l5[label]}\n${item.text}` : item.text;
    }
  }
}

const L5_LABELS: Record<string, keyof PromptWordsL5 | undefined> = {
  'working-memory': 'workingMemory',
  before: 'before',
  selection: 'selection',
  after: 'after',
  message: 'message',
};
type PromptWordsL5 = (typeof PROMPT_WORDS)['en']['l5'];

/** Items of one layer are separated by a blank line; L2's rule lines and L4's bullets by a line break. */
export function separatorOf(id: LayerId): string {
  return id === 'L2' || id === 'L4' ? '\n' : '\n\n';
}
