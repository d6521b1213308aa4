/**
 * The prompt's one language (issue 15). Every word Engram adds around the user's content — headings,
 * labels, placeholders, markers, the system instructions — is in the language of the user's message,
 * so a small model is not pulled into the other one ("## L5 · immediate · 当前任务" made replies drift
 * into Chinese). A message without letters of either ("ok 👍", "42") takes the language of the text
 * around it, then the UI's.
 *
 * Within one language the stable prefix stays byte-identical (seed 004); a conversation that changes
 * language re-reads the prefix once (docs/decisions.md).
 */
import type { LayerId } from './types';

export type PromptLanguage = 'en' | 'zh';

const HAN = /\p{Script=Han}/u;
const LATIN = /\p{Script=Latin}/u;

/** The language of the first text that has letters of either language; else the UI's. */
export function promptLanguage(texts: readonly (string | undefined)[], uiLocale: 'en' | 'zh-CN'): PromptLanguage {
  for (const text of texts) {
    if (!text) continue;
    if (HAN.test(text)) return 'zh';
    if (LATIN.test(text)) return 'en';
  }
  return uiLocale === 'zh-CN' ? 'zh' : 'en';
}

export interface PromptWords {
  headings: Record<LayerId, string>;
  /** `[Relevant memories: could not be loaded (timeout)]` */
  unavailable: (layer: string, status: string) => string;
  status: Record<'missing' | 'timeout' | 'canceled', string>;
  degraded: (layer: string) => string;
  l5: { workingMemory: string; before: string; selection: string; after: string; message: string };
  l4: { earlier: string; otherConversation: (title: string) => string; recentConversation: (title: string) => string };
  workingMemory: { topic: string; variables: string; emotion: string };
  capabilities: { label: string; names: Record<'project' | 'selection' | 'memory', string>; on: string; off: string; sep: string; colon: string };
  preferences: { header: string; empty: string; confidence: (value: string) => string; confirmed: string; project: string; open: string; close: string; sep: string };
  speaker: { user: string; assistant: string };
}

export const PROMPT_WORDS: Record<PromptLanguage, PromptWords> = {
  en: {
    headings: {
      L0: '## Instructions',
      L1: '## About the user',
      L2: '## Writing preferences',
      L3: '## Project settings',
      L4: '## Relevant memories',
      L5: '## Current task',
    },
    unavailable: (layer, status) => `[${layer}: could not be loaded (${status})]`,
    status: { missing: 'unreadable', timeout: 'timed out', canceled: 'canceled' },
    degraded: (layer) => `[${layer}: only partly loaded]`,
    l5: { workingMemory: 'This conversation so far:', before: 'Text before the selection:', selection: 'Selection:', after: 'Text after the selection:', message: 'Request:' },
    l4: {
      earlier: 'Earlier in this conversation:',
      otherConversation: (title) => `From the conversation “${title}”:`,
      recentConversation: (title) => `Recent conversation “${title}”:`,
    },
    workingMemory: { topic: 'topic', variables: 'details', emotion: 'mood' },
    capabilities: {
      label: 'Available:',
      names: { project: 'project', selection: 'selection', memory: 'memory' },
      on: 'yes',
      off: 'no',
      sep: '; ',
      colon: ': ',
    },
    preferences: {
      header: '[Learned writing preferences]',
      empty: '- (no preferences yet)',
      confidence: (value) => `confidence: ${value}`,
      confirmed: 'confirmed by the user',
      project: 'this project',
      open: ' (',
      close: ')',
      sep: ', ',
    },
    speaker: { user: 'user', assistant: 'assistant' },
  },
  zh: {
    headings: {
      L0: '## 指令',
      L1: '## 关于用户',
      L2: '## 用户偏好',
      L3: '## 项目设定',
      L4: '## 相关记忆',
      L5: '## 当前任务',
    },
    unavailable: (layer, status) => `[${layer}：本次未能载入（${status}）]`,
    status: { missing: '无法读取', timeout: '超时', canceled: '已取消' },
    degraded: (layer) => `[${layer}：仅部分载入]`,
    l5: { workingMemory: '本次对话概况：', before: '选区前文：', selection: '选区：', after: '选区后文：', message: '请求：' },
    l4: {
      earlier: '本次对话之前的内容：',
      otherConversation: (title) => `来自对话「${title}」：`,
      recentConversation: (title) => `最近的对话「${title}」：`,
    },
    workingMemory: { topic: '话题', variables: '要点', emotion: '情绪' },
    capabilities: {
      label: '本次可用：',
      names: { project: '项目', selection: '选区', memory: '记忆' },
      on: '是',
      off: '否',
      sep: '；',
      colon: '：',
    },
    // Seed 003's own format ("语义记忆注入"): `[用户写作偏好 - 自动学习]`, `- 规则（置信度: 0.87）`.
    preferences: {
      header: '[用户写作偏好 - 自动学习]',
      empty: '- （暂无偏好）',
      confidence: (value) => `置信度: ${value}`,
      confirmed: '用户已确认',
      project: '项目级',
      open: '（',
      close: '）',
      sep: '，',
    },
    speaker: { user: '用户', assistant: '助手' },
  },
};

/** The heading text without `## `, as a marker names its layer. */
export function layerTitle(id: LayerId, lang: PromptLanguage): string {
  return PROMPT_WORDS[lang].headings[id].replace(/^##\s+/u, '');
}
