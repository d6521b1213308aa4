/**
 * Masking instead of deleting (seed 004 "行为控制使用 masking 而非删除"): L0 always describes every
 * capability; a run where one is unavailable (no project, no selection, memory unreadable) says so in
 * one fixed flag line at the start of the dynamic part. L0 — and the stable prefix hash — stay the same.
 *
 * The flag line is the only text whose words follow `locale`: it sits after the cached prefix, so a
 * change of UI language costs nothing there.
 */
import type { Capability } from './types';

export const CAPABILITIES: readonly Capability[] = ['project', 'selection', 'memory'];

const WORDS = {
  en: {
    label: '[capabilities]',
    names: { project: 'project', selection: 'selection', memory: 'memory' },
    on: 'available',
    off: 'unavailable',
    sep: '; ',
    colon: ': ',
  },
  'zh-CN': {
    label: '[能力]',
    names: { project: '项目', selection: '选区', memory: '记忆' },
    on: '可用',
    off: '不可用',
    sep: '；',
    colon: '：',
  },
} as const;

export function flagLine(flags: Record<Capability, boolean>, locale: 'en' | 'zh-CN'): string {
  const w = WORDS[locale];
  const parts = CAPABILITIES.map((c) => `${w.names[c]}${w.colon}${flags[c] ? w.on : w.off}`);
  return `${w.label} ${parts.join(w.sep)}`;
}
