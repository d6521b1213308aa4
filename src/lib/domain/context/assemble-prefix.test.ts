import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assembleContext } from './assemble';
import { compactItem, createCompactSummary } from './compact';
import { preferenceItem } from './preferences';
import { parseContextRules } from './rules';
import { input, item, layersOf } from './testing';
import type { ContextPackage, LayerId, LayerInput, LayerResult } from './types';

const skill = (rules: unknown) => ({ id: 'polish', rules: parseContextRules(rules) });
const layer = (pkg: ContextPackage, id: LayerId) => pkg.layers.find((l) => l.id === id) as LayerResult;
/** The stable prefix up to the end of L2 (L3 follows it, so a change in L2 moves L3's bytes). */
const throughL2 = (pkg: ContextPackage) => pkg.layers.slice(0, 3).map((l) => l.text).join('\n\n');
const prefs = (extra: LayerInput['items'] = []): LayerInput => ({ items: [...(layersOf().L2.items), ...extra] });

describe('004 同一 SKILL 类型在相同静态条件下复用前缀', () => {
  it('repeated runs give a byte-identical prefix', async () => {
    const a = await assembleContext(input({ skill: skill({ characters: true }) }));
    const b = await assembleContext(input({ skill: skill({ characters: true }) }));
    expect(b.stablePrefix).toBe(a.stablePrefix);
    expect(b.stablePrefixHash).toBe(a.stablePrefixHash);
  });

  it('a new preference is appended: every earlier byte stays the same', async () => {
    const before = await assembleContext(input({ layers: layersOf({ L2: prefs() }) }));
    const added = preferenceItem({ id: '9', rule: '章节结尾留悬念', scope: 'project', confidence: 0.8, order: 9 });
    // Supplied first: the position comes from creation order, not from the caller's list.
    const after = await assembleContext(input({ layers: layersOf({ L2: { items: [added, ...prefs().items] } }) }));
    expect(throughL2(after).startsWith(throughL2(before))).toBe(true);
    expect(throughL2(after).slice(throughL2(before).length)).toBe('\n- 章节结尾留悬念（置信度: 0.80，项目级）');
    expect(after.stablePrefixHash).not.toBe(before.stablePrefixHash);
  });

  it('an edited rule changes the prefix from its own line on, never before it', async () => {
    const before = await assembleContext(input());
    const edited = layersOf().L2.items.map((i) => (i.id === 'preference:2' ? { ...i, text: '对白风格：书面语' } : i));
    const after = await assembleContext(input({ layers: layersOf({ L2: { items: edited } }) }));
    const line = before.stablePrefix.indexOf('- 对白风格');
    expect(after.stablePrefix.slice(0, line)).toBe(before.stablePrefix.slice(0, line));
    expect(after.stablePrefix.slice(line)).not.toBe(before.stablePrefix.slice(line));
  });

  it('issue 15: the prompt follows the language of the message, not the UI language', async () => {
    const polish = skill({ surrounding: 500 });
    const zh = await assembleContext(input({ locale: 'zh-CN', skill: polish }));
    const zhInEnUi = await assembleContext(input({ locale: 'en', skill: polish }));
    expect(zhInEnUi.stablePrefix).toBe(zh.stablePrefix);
    expect(zh.dynamicText.split('\n')[0]).toBe('本次可用： 项目：是；选区：是；记忆：是');
    const english = layersOf({ L5: { items: [...layersOf().L5.items.filter((i) => i.kind !== 'message'), item('message', 'message', 'Make it tighter')] } });
    const en = await assembleContext(input({ locale: 'zh-CN', skill: polish, layers: english }));
    expect(en.language).toBe('en');
    expect(en.dynamicText.split('\n')[0]).toBe('Available: project: yes; selection: yes; memory: yes');
    expect(layer(en, 'L2').text.startsWith('## Writing preferences\n[Learned writing preferences]\n- ')).toBe(true);
    expect(layer(en, 'L2').text).toContain('(confidence: 0.95, confirmed by the user)');
    // A message with no letters of either language ("👍") takes the UI's.
    const noWords = layersOf({ L5: { items: [item('message', 'message', '👍 42')] } });
    expect((await assembleContext(input({ locale: 'en', layers: noWords }))).language).toBe('en');
    expect((await assembleContext(input({ locale: 'zh-CN', layers: noWords }))).language).toBe('zh');
  });
});

describe('004 stablePrefixHash 的口径稳定且可用于验收', () => {
  it('is the SHA-256 of the L0–L3 text only', async () => {
    const pkg = await assembleContext(input());
    expect(pkg.stablePrefixHash).toMatch(/^[0-9a-f]{64}$/);
    expect(pkg.stablePrefixHash).toBe(createHash('sha256').update(pkg.stablePrefix, 'utf8').digest('hex'));
  });

  it('ignores timestamps, request ids and anything else in L4–L5', async () => {
    const run = (requestId: string, at: string) =>
      assembleContext(
        input({
          layers: layersOf({
            L4: { items: [item(`memory:${requestId}`, 'memory', `检索于 ${at}`)] },
            L5: { items: [item('message', 'message', `request ${requestId} at ${at}`), item('working', 'working-memory', Math.random().toString())] },
          }),
        }),
      );
    const a = await run('req-1', '2026-01-27T10:00:00Z');
    const b = await run('req-2', '2026-03-01T23:59:59Z');
    expect(b.dynamicText).not.toBe(a.dynamicText);
    expect(b.stablePrefixHash).toBe(a.stablePrefixHash);
  });

  it('changes when anything in L0–L3 changes', async () => {
    const base = await assembleContext(input());
    const profile = await assembleContext(input({ layers: layersOf({ L1: { items: [item('profile:1', 'profile', '回复风格：详细。')] } }) }));
    const otherSkill = await assembleContext(input({ skill: skill({ characters: true }) }));
    expect(new Set([base.stablePrefixHash, profile.stablePrefixHash, otherSkill.stablePrefixHash]).size).toBe(3);
  });
});

describe('004 行为控制使用 masking 而非删除', () => {
  it('no selection and no project: L0 stays byte-identical, the flag line says what is unavailable', async () => {
    const polish = skill({ surrounding: 500 });
    const full = await assembleContext(input({ skill: polish }));
    const l5 = { items: layersOf().L5.items.filter((i) => i.kind !== 'selection') };
    const masked = await assembleContext(input({ skill: polish, layers: layersOf({ L5: l5 }), capabilities: { project: false } }));
    expect(layer(masked, 'L0').text).toBe(layer(full, 'L0').text);
    expect(masked.stablePrefixHash).toBe(full.stablePrefixHash);
    expect(masked.dynamicText.split('\n')[0]).toBe('本次可用： 项目：否；选区：否；记忆：是');
  });

  it('memory shows as unavailable when a memory layer could not be read', async () => {
    const pkg = await assembleContext(input({ skill: skill({ memories: true }), layers: layersOf({ L4: { status: 'timeout', items: [] } }) }));
    expect(pkg.dynamicText.split('\n')[0]).toBe('本次可用： 项目：是；选区：是；记忆：否');
  });
});

describe('004 默认自动注入（无需手动预览）', () => {
  it('injects the rules in the 003 format, in creation order whatever the input order', async () => {
    const shuffled = [...layersOf().L2.items].reverse();
    const pkg = await assembleContext(input({ layers: layersOf({ L2: { items: shuffled } }) }));
    expect(layer(pkg, 'L2').text.split('\n')).toEqual([
      '## 用户偏好',
      '[用户写作偏好 - 自动学习]',
      '- 动作场景：偏好短句（平均 < 15 字），节奏紧凑（置信度: 0.87）',
      '- 对白风格：口语化，避免书面语气（置信度: 0.92）',
      '- 叙事视角：严格第一人称（置信度: 0.95，用户已确认）',
    ]);
  });

  it('without any preference a skill run\'s section holds the fixed empty placeholder; a chat turn sends none', async () => {
    const pkg = await assembleContext(input({ skill: skill({ surrounding: 500 }), layers: layersOf({ L2: { status: 'empty', items: [] } }) }));
    expect(layer(pkg, 'L2').text).toBe('## 用户偏好\n[用户写作偏好 - 自动学习]\n- （暂无偏好）');
    expect(pkg.memoryDegraded).toBe(false);
    const chat = await assembleContext(input({ layers: layersOf({ L2: { status: 'empty', items: [] } }) }));
    expect(layer(chat, 'L2').text).toBe('');
  });

  it('003 项目级记忆覆盖全局记忆: the project rule is injected, the global one masked and recorded', async () => {
    const global = preferenceItem({ id: 'g', rule: '偏好第一人称', scope: 'global', confidence: 0.8, key: 'pov', order: 1 });
    const project = preferenceItem({ id: 'p', rule: '使用第三人称全知', scope: 'project', confidence: 0.9, key: 'pov', order: 2 });
    const pkg = await assembleContext(input({ layers: layersOf({ L2: { items: [global, project] } }) }));
    const l2 = layer(pkg, 'L2');
    expect(l2.text).toContain('- 使用第三人称全知（置信度: 0.90，项目级）');
    expect(l2.text).not.toContain('偏好第一人称');
    expect(l2.cut).toMatchObject([{ itemId: 'preference:g', reason: 'masked', tokensAfter: 0 }]);
  });
});

describe('004 精准注入（只给需要的）', () => {
  it('surrounding: 500 without characters: only the selection and its surroundings, no settings', async () => {
    const pkg = await assembleContext(input({ skill: skill({ surrounding: 500 }) }));
    const l3 = layer(pkg, 'L3');
    expect(l3.text).toBe('');
    expect(l3.cut.map((c) => [c.itemId, c.reason])).toEqual([
      ['file:.engram/characters/alice.md', 'not-requested'],
      ['file:.engram/world/setting.md', 'not-requested'],
      ['file:.engram/style/guide.md', 'not-requested'],
    ]);
    expect(pkg.stablePrefix + pkg.dynamicText).not.toContain('Alice');
    expect(layer(pkg, 'L4').items).toEqual([]);
    expect(layer(pkg, 'L5').items.map((i) => i.id)).toEqual(['surround:before', 'selection', 'surround:after', 'message']);
  });

  it('a skill that names characters gets only those, and only the settings it asks for', async () => {
    const L3 = { items: [...layersOf().L3.items, item('file:.engram/characters/bob.md', 'character', 'Bob：工程师。', { order: 4 })] };
    const pkg = await assembleContext(input({ layers: layersOf({ L3 }), skill: skill({ characters: ['alice'], 'project-settings': true }) }));
    expect(layer(pkg, 'L3').sources).toEqual(['.engram/characters/alice.md', '.engram/world/setting.md']);
    expect(layer(pkg, 'L3').cut.map((c) => c.itemId)).toEqual(['file:.engram/style/guide.md', 'file:.engram/characters/bob.md']);
  });

  it('surrounding: N trims each side at paragraph boundaries and records the trim', async () => {
    const pkg = await assembleContext(input({ skill: skill({ surrounding: 8 }) }));
    const l5 = layer(pkg, 'L5');
    expect(l5.text).toContain('选区前文：\n第二段开始了。\n\n选区：');
    expect(l5.text).toContain('选区后文：\n警报停了。\n\n请求：');
    expect(l5.cut.filter((c) => c.reason === 'trimmed').map((c) => c.itemId)).toEqual(['surround:before', 'surround:after']);
  });

  it('memories.topN and history.turns limit what is injected', async () => {
    const pkg = await assembleContext(input({ skill: skill({ memories: { topN: 1 }, history: { turns: 1, summaries: false } }) }));
    expect(layer(pkg, 'L4').items.map((i) => i.id)).toEqual(['memory:m1', 'episode:e1']);
    expect(layer(pkg, 'L4').cut.map((c) => [c.itemId, c.reason])).toEqual([['summary:s1', 'not-requested']]);
    expect(pkg.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
  });

  it('chat without a skill uses everything the engine supplied', async () => {
    const pkg = await assembleContext(input());
    expect(layer(pkg, 'L3').items).toHaveLength(3);
    expect(layer(pkg, 'L4').items).toHaveLength(3);
  });
});

describe('004 历史记录自动压缩: L4 uses the compact summary and cites the full rows', () => {
  it('injects the compact summary with its fullRef', async () => {
    const summary = createCompactSummary({
      range: { from: 1, to: 40 },
      topics: ['第三章的节奏'],
      decisions: ['改成倒叙'],
      openQuestions: ['Alice 是否知情'],
      entities: ['Alice'],
      fullRef: { table: 'messages', ids: [11, 50] },
    });
    const pkg = await assembleContext(input({ layers: layersOf({ L4: { items: [compactItem(summary, 's1')] } }), skill: skill({ history: true }) }));
    expect(layer(pkg, 'L4').text).toContain('- 本次对话之前的内容： compact summary 压缩摘要 (1–40)');
    expect(layer(pkg, 'L4').sources).toEqual(['messages#11-50']);
  });
});
