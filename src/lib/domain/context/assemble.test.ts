import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { assembleContext } from './assemble';
import { preferenceItem } from './preferences';
import { PROMPT_WORDS } from './prompt-language';
import { parseContextRules } from './rules';
import { counter, input, item, layersOf } from './testing';
import type { AssembleInput, ContextPackage, LayerId, LayerResult } from './types';

/** The fixtures' message is Chinese, so is every word the engine adds (issue 15). */
const HEADINGS = ['## 指令', '## 关于用户', '## 用户偏好', '## 项目设定', '## 相关记忆', '## 当前任务'];

const skill = (rules: unknown) => ({ id: 'polish', rules: parseContextRules(rules) });
const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const layer = (pkg: ContextPackage, id: LayerId) => pkg.layers.find((l) => l.id === id) as LayerResult;

describe('004 构建一次 SKILL 调用的上下文包', () => {
  it('injects L0→L5 in fixed order, L0–L3 as the stable prefix, L4–L5 after it', async () => {
    const pkg = await assembleContext(input({ skill: skill({ surrounding: 500, characters: true, memories: true, history: true }) }));
    expect(pkg.layers.map((l) => l.id)).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'L5']);
    pkg.layers.forEach((l, i) => expect(l.text.startsWith(HEADINGS[i] as string)).toBe(true));
    expect(pkg.stablePrefix).toBe(`${pkg.layers.slice(0, 4).map((l) => l.text).join('\n\n')}\n`);
    const all = pkg.stablePrefix + pkg.dynamicText;
    const positions = HEADINGS.map((h) => all.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(pkg.stablePrefix).not.toContain('用户上周决定');
    // A memory reaches the model as its sentence, never with an id it might echo.
    expect(pkg.dynamicText).toContain('- 用户上周决定把第三章改成倒叙。');
    expect(pkg.dynamicText).not.toMatch(/\[(?:memory|episode|summary):/u);
    expect(pkg.language).toBe('zh');
  });

  it('sends the prefix first, then the recent turns as native messages, then the task', async () => {
    const pkg = await assembleContext(input({ skill: skill({ surrounding: 500, history: true }) }));
    expect(pkg.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(pkg.messages[0]?.content.startsWith(pkg.stablePrefix)).toBe(true);
    expect(pkg.messages[0]?.content).toContain('## 相关记忆');
    expect(pkg.messages[1]?.content).toBe('帮我看看这一段。');
    expect(pkg.messages[2]?.content).toBe('好的，请选中要润色的文字。');
    const task = pkg.messages[3]?.content ?? '';
    expect(task.startsWith('## 当前任务\n')).toBe(true);
    expect(task.indexOf('选区前文：')).toBeLessThan(task.indexOf('选区：'));
    expect(task.indexOf('选区：')).toBeLessThan(task.indexOf('选区后文：'));
    expect(task.indexOf('选区后文：')).toBeLessThan(task.indexOf('请求：\n润色这段'));
    expect(pkg.totalTokens).toBe(pkg.messages.reduce((s, m) => s + counter.count(m.content), 0));
  });

  it('counts every layer with the real tokenizer and reports its sources', async () => {
    const pkg = await assembleContext(input({ skill: skill({ characters: true, 'project-settings': true, style: true }) }));
    for (const l of pkg.layers) expect(l.tokens).toBe(counter.count(l.text));
    expect(layer(pkg, 'L3').sources).toEqual(['.engram/characters/alice.md', '.engram/world/setting.md', '.engram/style/guide.md']);
    expect(layer(pkg, 'L3').text).toContain('[file:.engram/characters/alice.md]\nAlice：飞船的领航员');
  });
});

describe('004 任意层缺失/失败 MUST 可判定（不得 silent failure）', () => {
  it.each([
    ['L1', 'missing', '[关于用户：本次未能载入（无法读取）]'],
    ['L2', 'timeout', '[用户偏好：本次未能载入（超时）]'],
    ['L3', 'canceled', '[项目设定：本次未能载入（已取消）]'],
    ['L4', 'timeout', '[相关记忆：本次未能载入（超时）]'],
    ['L5', 'canceled', '[当前任务：本次未能载入（已取消）]'],
  ] as const)('%s %s renders the fixed marker %s', async (id, status, marker) => {
    const pkg = await assembleContext(input({ layers: layersOf({ [id]: { status, items: [], reason: 'DB_UNAVAILABLE' } }) }));
    const l = layer(pkg, id);
    expect(l.text.split('\n')).toContain(marker);
    expect(l).toMatchObject({ status, reason: 'DB_UNAVAILABLE', items: [], sources: [] });
    expect(pkg.layers).toHaveLength(6);
    expect(pkg.memoryDegraded).toBe(id === 'L1' || id === 'L2' || id === 'L4');
  });

  it('a layer absent from the input counts as missing', async () => {
    const layers = layersOf() as Partial<Record<LayerId, unknown>>;
    delete layers.L4;
    const pkg = await assembleContext(input({ layers: layers as AssembleInput['layers'] }));
    expect(layer(pkg, 'L4').text).toContain('[相关记忆：本次未能载入（无法读取）]');
    expect(pkg.memoryDegraded).toBe(true);
  });

  it('003 记忆检索失败时降级到默认规则: degraded L2 shows the defaults and a marker', async () => {
    const defaults = { status: 'degraded' as const, items: [preferenceItem({ id: 'default:1', rule: '保持原文语气', scope: 'global', confidence: 0.5 })] };
    const pkg = await assembleContext(input({ layers: layersOf({ L2: defaults }) }));
    expect(layer(pkg, 'L2').text.split('\n')).toEqual(['## 用户偏好', '[用户写作偏好 - 自动学习]', '[用户偏好：仅部分载入]', '- 保持原文语气（置信度: 0.50）']);
    expect(pkg.memoryDegraded).toBe(true);
  });

  it('an item without text is left out, but recorded', async () => {
    const L2 = { items: [...layersOf().L2.items, preferenceItem({ id: 'blank', rule: '  \n ', scope: 'global', confidence: 0.5, order: 9 })] };
    const pkg = await assembleContext(input({ layers: layersOf({ L2 }) }));
    expect(layer(pkg, 'L2').text.split('\n')).toHaveLength(5);
    expect(layer(pkg, 'L2').cut).toEqual([{ itemId: 'preference:blank', reason: 'trimmed', tokensBefore: 0, tokensAfter: 0 }]);
  });

  it('issue 15: an empty or disabled layer sends nothing, and is no degradation', async () => {
    const empty = { status: 'empty' as const, items: [], reason: 'disabled' };
    const pkg = await assembleContext(input({ layers: layersOf({ L1: empty, L3: { items: [] }, L4: { items: [] } }) }));
    for (const id of ['L1', 'L3', 'L4'] as const) expect(layer(pkg, id).text).toBe('');
    expect(pkg.memoryDegraded).toBe(false);
    const sent = pkg.messages.map((m) => m.content).join('\n');
    for (const h of ['## 关于用户', '## 项目设定', '## 相关记忆']) expect(sent).not.toContain(h);
    expect(pkg.stablePrefix).not.toMatch(/\n{3,}/u);
  });

  it('issue 15: a chat message is sent as typed, with no scaffolding around it', async () => {
    const L5 = { items: [item('turn:1', 'turn', 'Hi', { meta: { role: 'user' } }), item('working-memory', 'working-memory', 'topic: sister Lena'), item('message', 'message', 'My sister is called Lena.')] };
    const pkg = await assembleContext(input({ layers: layersOf({ L5, L2: { items: [] } }) }));
    expect(pkg.language).toBe('en');
    expect(pkg.messages.at(-1)).toEqual({ role: 'user', content: 'My sister is called Lena.' });
    // The state of the conversation goes with the system message; chat has no capability line.
    expect(pkg.messages[0]?.content).toContain('This conversation so far:\ntopic: sister Lena');
    expect(pkg.messages[0]?.content).not.toContain('Available:');
    expect(layer(pkg, 'L2').text).toBe('');
    // The user's own (Chinese) profile and memories stay as they are; no word Engram adds is Chinese.
    const sent = pkg.messages.map((m) => m.content).join('\n');
    for (const h of Object.values(PROMPT_WORDS.zh.headings)) expect(sent).not.toContain(h);
    expect(sent).toContain('## Relevant memories');
  });

  it.each([
    ['canceled', 'CANCELED'],
    ['timeout', 'TIMEOUT'],
    ['missing', 'INVALID_ARGUMENT'],
    ['empty', 'INVALID_ARGUMENT'],
  ] as const)('L0 %s fails the run with %s', async (status, code) => {
    const run = assembleContext(input({ layers: layersOf({ L0: { status, items: [] } }) }));
    await expect(run).rejects.toBeInstanceOf(EngineError);
    await expect(run).rejects.toMatchObject({ code });
  });
});

describe('004 每层的 Token 预算（真实分词器，按模型可设）', () => {
  it('cuts the lowest-ranked retrieved items to stay within the L4 budget', async () => {
    const full = await assembleContext(input({ skill: skill({ memories: true, history: true }) }));
    const budget = layer(full, 'L4').tokens - 3;
    const pkg = await assembleContext(input({ skill: skill({ memories: true, history: true }), budgets: { L4: budget } }));
    const l4 = layer(pkg, 'L4');
    expect(l4.tokens).toBeLessThanOrEqual(budget);
    expect(l4.budget).toBe(budget);
    expect(l4.items.map((i) => i.id)).toEqual(['memory:m1', 'episode:e1']);
    expect(l4.cut).toEqual([{ itemId: 'summary:s1', reason: 'over-budget', tokensBefore: counter.count('- 讨论了第三章的节奏问题。'), tokensAfter: 0 }]);
  });

  it('a per-model ratio scales the counts', async () => {
    const { createTokenCounter } = await import('../text/tokens');
    const llama = createTokenCounter({ name: 'llama', ratio: 1.5 });
    const a = await assembleContext(input());
    const b = await assembleContext(input({ counter: llama }));
    expect(layer(b, 'L1').tokens).toBe(llama.count(layer(a, 'L1').text));
    expect(layer(b, 'L1').tokens).toBeGreaterThan(layer(a, 'L1').tokens);
  });

  it('trims a long setting file at a paragraph boundary rather than dropping it', async () => {
    const long = ['第一段：轨道站有三层。上层是居住区。', '第二段：中层是农场。', '第三段：下层是反应堆。没有人愿意去那里。'].join('\n');
    const L3 = { items: [item('file:.engram/world/station.md', 'world', long)] };
    const wanted = `## 项目设定\n[file:.engram/world/station.md]\n第一段：轨道站有三层。上层是居住区。\n第二段：中层是农场。`;
    const pkg = await assembleContext(input({ layers: layersOf({ L3 }), skill: skill({ 'project-settings': true }), budgets: { L3: counter.count(wanted) + 1 } }));
    expect(layer(pkg, 'L3').text).toBe(wanted);
    expect(layer(pkg, 'L3').cut).toMatchObject([{ itemId: 'file:.engram/world/station.md', reason: 'trimmed' }]);
  });

  it('the rolling window drops the oldest turns first and never the selection or the message', async () => {
    const turns = Array.from({ length: 6 }, (_, i) => item(`turn:${i + 1}`, 'turn', `第${i + 1}轮的对话内容，说了一些话。`, { meta: { role: i % 2 ? 'assistant' : 'user' } }));
    const L5 = { items: [...turns, item('selection', 'selection', '她跑向控制台。'), item('message', 'message', '润色')] };
    const pkg = await assembleContext(input({ layers: layersOf({ L5 }), skill: skill({ history: true }), budgets: { L5: 90 } }));
    const kept = layer(pkg, 'L5').items.map((i) => i.id);
    expect(kept).toContain('selection');
    expect(kept).toContain('message');
    const keptTurns = kept.filter((id) => id.startsWith('turn:'));
    expect(keptTurns.length).toBeGreaterThan(0);
    expect(keptTurns.length).toBeLessThan(6);
    expect(keptTurns).toEqual(turns.slice(6 - keptTurns.length).map((t) => t.id));
    expect(layer(pkg, 'L5').tokens).toBeLessThanOrEqual(90);
  });

  it.each([[{ L4: -1 }], [{ L4: 1.5 }], [{ L9: 10 } as never]])('rejects budgets %o naming the field', async (budgets) => {
    await expect(assembleContext(input({ budgets }))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/`budgets\.L\d`/) });
  });
});

describe('004 来源引用必须去敏并且可移植', () => {
  it('rejects a file item whose path is absolute, without echoing it', async () => {
    const L3 = { items: [item('file:/home/zhang/novel/.engram/characters/alice.md', 'character', 'Alice')] };
    const run = assembleContext(input({ layers: layersOf({ L3 }), skill: skill({ characters: true }) }));
    await expect(run).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`layers.L3.items[0].id`') });
    await expect(run).rejects.toMatchObject({ message: expect.not.stringContaining('zhang') });
  });

  it('rejects an absolute source in any layer, and normalises file ids', async () => {
    const L4 = { items: [item('memory:1', 'memory', '记忆', { source: 'C:\\Users\\zhang\\notes.txt' })] };
    await expect(assembleContext(input({ layers: layersOf({ L4 }) }))).rejects.toMatchObject({ message: expect.stringContaining('`layers.L4.items[0].source`') });
    const L3 = { items: [item('file:./.engram\\characters\\bob.md', 'character', 'Bob')] };
    const pkg = await assembleContext(input({ layers: layersOf({ L3 }) }));
    expect(layer(pkg, 'L3').sources).toEqual(['.engram/characters/bob.md']);
    expect(layer(pkg, 'L3').text).toContain('[file:.engram/characters/bob.md]');
  });

  it.each([
    [{ L2: { items: [item('dup', 'preference', 'a', { meta: { scope: 'global', confidence: 0.5 } }), item('dup', 'preference', 'b', { meta: { scope: 'global', confidence: 0.5 } })] } }, '`layers.L2.items[1].id`'],
    [{ L5: { items: [item('turn:1', 'turn', '你好', { meta: { role: 'system' } })] } }, '`layers.L5.items[0].meta.role`'],
  ])('rejects malformed items naming the field', async (layers, field) => {
    await expect(assembleContext(input({ layers: layersOf(layers) }))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(field) });
  });
});
