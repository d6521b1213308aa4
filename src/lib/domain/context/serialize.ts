/**
 * Deterministic serialization (seed 004 "确定性序列化"). Every heading, marker and placeholder is a
 * fixed string that does not depend on the UI language, the clock or the request: the same static
 * inputs give byte-identical L0–L3 text. Headings carry the English name and the seed's Chinese term.
 *
 *   ## L2 · preferences · 用户偏好          ← heading (fixed)
 *   [用户写作偏好 - 自动学习]               ← fixed header (L2 only)
 *   - <rule>（置信度: 0.87）                ← items, or the fixed placeholder / marker line
 */
import type { LayerId, LayerStatus, ContextItem } from './types';
import { layerSpec } from './layers';

const CHINESE_NAME: Record<LayerId, string> = {
  L0: '规则',
  L1: '用户画像',
  L2: '用户偏好',
  L3: '项目设定',
  L4: '相关记忆',
  L5: '当前任务',
};

export function heading(id: LayerId): string {
  return `## ${id} · ${layerSpec(id).name} · ${CHINESE_NAME[id]}`;
}

/** `[L4 retrieved: unavailable (timeout)]` — the visible gap for a source that could not be read. */
export function unavailableMarker(id: LayerId, status: 'missing' | 'timeout' | 'canceled'): string {
  return `[${id} ${layerSpec(id).name}: unavailable (${status})]`;
}

/** Shown above what there is when a layer degraded (e.g. 003's built-in default rules). */
export function degradedMarker(id: LayerId): string {
  return `[${id} ${layerSpec(id).name}: degraded]`;
}

/** The fixed body of a layer with nothing to show (L2 has its own, see preferences.ts). */
export function emptyPlaceholder(id: LayerId): string {
  return `[${id} ${layerSpec(id).name}: none]`;
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

const L5_LABEL: Record<string, string> = {
  'working-memory': '[working memory · 工作记忆]',
  before: '[before · 前文]',
  selection: '[selection · 选区]',
  after: '[after · 后文]',
  message: '[message · 用户消息]',
};

export function turnRole(item: ContextItem): 'user' | 'assistant' {
  return item.meta?.role === 'assistant' ? 'assistant' : 'user';
}

/** One item as it appears in its layer; `citation` is its id or, for files, `file:<relative path>`. */
export function renderItem(id: LayerId, item: ContextItem, citation: string): string {
  switch (id) {
    case 'L0':
    case 'L1':
    case 'L2':
      return item.text;
    case 'L3':
      return `[${citation}]\n${item.text}`;
    case 'L4':
      return `[${citation}] ${item.text}`;
    case 'L5': {
      if (item.kind === 'turn') return `${turnRole(item)}: ${item.text}`;
      const label = L5_LABEL[l5Slot(item)] ?? `[${citation}]`;
      return `${label}\n${item.text}`;
    }
  }
}

/** Items of one layer are separated by a blank line, L2's rule lines by a single line break. */
export function separatorOf(id: LayerId): string {
  return id === 'L2' ? '\n' : '\n\n';
}
