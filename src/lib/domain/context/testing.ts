/** Fixtures for context tests (and for engine/inspector tests that need a realistic package). */
import { createTokenCounter } from '../text/tokens';
import { preferenceItem } from './preferences';
import type { AssembleInput, ContextItem, LayerId, LayerInput } from './types';

export const counter = createTokenCounter();

export function layersOf(overrides: Partial<Record<LayerId, LayerInput>> = {}): Record<LayerId, LayerInput> {
  return {
    L0: {
      items: [
        { id: 'system:base', kind: 'system', order: 0, text: 'You are Engram, a writing assistant. Use the selection when one is given; otherwise answer the message.' },
        { id: 'skill:polish', kind: 'skill', order: 1, text: 'Skill "polish": rewrite the selection more concisely; keep the meaning.' },
      ],
    },
    L1: { items: [{ id: 'profile:1', kind: 'profile', text: '回复风格：简洁。主要背景：科幻小说作者。' }] },
    L2: {
      items: [
        preferenceItem({ id: '1', rule: '动作场景：偏好短句（平均 < 15 字），节奏紧凑', scope: 'global', confidence: 0.87, order: 1 }),
        preferenceItem({ id: '2', rule: '对白风格：口语化，避免书面语气', scope: 'global', confidence: 0.92, order: 2 }),
        preferenceItem({ id: '3', rule: '叙事视角：严格第一人称', scope: 'global', confidence: 0.95, userConfirmed: true, order: 3 }),
      ],
    },
    L3: {
      items: [
        { id: 'file:.engram/characters/alice.md', kind: 'character', order: 1, text: 'Alice：飞船的领航员，冷静，说话很少。' },
        { id: 'file:.engram/world/setting.md', kind: 'world', order: 2, text: '故事发生在 2300 年的木星轨道站。' },
        { id: 'file:.engram/style/guide.md', kind: 'style-guide', order: 3, text: '少用形容词。每段不超过五句。' },
      ],
    },
    L4: {
      items: [
        { id: 'memory:m1', kind: 'memory', text: '用户上周决定把第三章改成倒叙。' },
        { id: 'episode:e1', kind: 'episode', text: '上次润色时用户选择了更短的版本。' },
        { id: 'summary:s1', kind: 'session-summary', text: '讨论了第三章的节奏问题。' },
      ],
    },
    L5: {
      items: [
        { id: 'turn:1', kind: 'turn', text: '帮我看看这一段。', meta: { role: 'user' } },
        { id: 'turn:2', kind: 'turn', text: '好的，请选中要润色的文字。', meta: { role: 'assistant' } },
        { id: 'surround:before', kind: 'surrounding', text: '第一段。飞船缓缓驶入轨道站。\n第二段开始了。', meta: { side: 'before' } },
        { id: 'selection', kind: 'selection', text: '她非常非常快速地跑向了控制台，然后按下了按钮。' },
        { id: 'surround:after', kind: 'surrounding', text: '警报停了。\n新的一段。', meta: { side: 'after' } },
        { id: 'message', kind: 'message', text: '润色这段' },
      ],
    },
    ...overrides,
  };
}

export function input(overrides: Partial<AssembleInput> = {}): AssembleInput {
  return { layers: layersOf(), counter, locale: 'zh-CN', ...overrides };
}

export function item(id: string, kind: string, text: string, extra: Partial<ContextItem> = {}): ContextItem {
  return { id, kind, text, ...extra };
}
