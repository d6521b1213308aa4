import { describe, expect, it } from 'vitest';
import { formatPreferenceLine, preferenceItem, resolvePreferences } from './preferences';

describe('003 语义记忆注入 Context Engine 的格式', () => {
  it.each([
    [{ scope: 'global', confidence: 0.87, userConfirmed: false }, '- 动作场景：偏好短句（置信度: 0.87）'],
    [{ scope: 'global', confidence: 0.95, userConfirmed: true }, '- 动作场景：偏好短句（置信度: 0.95，用户已确认）'],
    [{ scope: 'project', confidence: 0.9, userConfirmed: false }, '- 动作场景：偏好短句（置信度: 0.90，项目级）'],
    [{ scope: 'project', confidence: 1, userConfirmed: true }, '- 动作场景：偏好短句（置信度: 1.00，用户已确认，项目级）'],
    [{ scope: 'global', confidence: 0.874999, userConfirmed: false }, '- 动作场景：偏好短句（置信度: 0.87）'],
  ] as const)('%o → %s', (meta, want) => {
    expect(formatPreferenceLine('动作场景：偏好短句', meta)).toBe(want);
  });

  it('keeps a multi-line rule on one line', () => {
    expect(formatPreferenceLine('动作场景：\n偏好短句', { scope: 'global', confidence: 0.5, userConfirmed: false })).toBe('- 动作场景： 偏好短句（置信度: 0.50）');
  });
});

describe('003 项目级记忆覆盖全局记忆', () => {
  const global = preferenceItem({ id: 'g', rule: '偏好第一人称', scope: 'global', confidence: 0.8, key: 'narrative.pov', order: 1 });
  const project = preferenceItem({ id: 'p', rule: '使用第三人称全知', scope: 'project', confidence: 0.9, key: 'Narrative.POV', order: 2 });
  const other = preferenceItem({ id: 'o', rule: '对白避免感叹号', scope: 'global', confidence: 0.7, key: 'dialogue.exclaim', order: 3 });

  it('masks the global rule whose key a project rule also has (keys compare case-insensitively)', () => {
    const { kept, masked } = resolvePreferences([global, project, other]);
    expect(kept.map((k) => k.item.id)).toEqual(['preference:p', 'preference:o']);
    expect(masked.map((m) => m.item.id)).toEqual(['preference:g']);
  });

  it('keeps both when the rules have no key or the same scope', () => {
    const unkeyed = preferenceItem({ id: 'u', rule: '偏好第一人称', scope: 'global', confidence: 0.8 });
    const { masked } = resolvePreferences([unkeyed, project, other]);
    expect(masked).toEqual([]);
  });

  it.each([
    [{ scope: 'team', confidence: 0.5 }, 'layers.L2.items[0].meta.scope'],
    [{ scope: 'global', confidence: 1.5 }, 'layers.L2.items[0].meta.confidence'],
    [{ scope: 'global' }, 'layers.L2.items[0].meta.confidence'],
    [undefined, 'layers.L2.items[0].meta.scope'],
  ])('rejects meta %o naming %s', (meta, field) => {
    const bad = { id: 'x', kind: 'preference', text: '秘密规则', ...(meta ? { meta } : {}) };
    expect(() => resolvePreferences([bad])).toThrowError(field);
    expect(() => resolvePreferences([bad])).not.toThrowError('秘密规则');
  });
});
