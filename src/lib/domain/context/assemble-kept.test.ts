import { describe, expect, it } from 'vitest';
import { assembleContext } from './assemble';
import { input, layersOf } from './testing';
import type { LayerResult } from './types';

const keptOf = (layers: LayerResult[]) => layers.flatMap((l) => l.items);

describe('issue 15: what a run keeps of each item is what a person reads in Inspect', () => {
  it('each kept item carries its kind, its words as sent (no label), and only the meta a person can read', async () => {
    const layers = layersOf();
    layers.L5.items[0] = { ...layers.L5.items[0]!, meta: { role: 'user', createdAt: 1_700_000_000_000, secret: { nested: true } as never, side: 'x' } };
    const pkg = await assembleContext(input({ layers }));
    const kept = keptOf(pkg.layers);
    expect(kept.find((i) => i.id === 'memory:m1')).toMatchObject({ kind: 'memory', text: '用户上周决定把第三章改成倒叙。' });
    expect(kept.find((i) => i.id === 'turn:1')).toEqual(expect.objectContaining({ kind: 'turn', text: '帮我看看这一段。', meta: { role: 'user', createdAt: 1_700_000_000_000 } }));
    const file = kept.find((i) => i.id === 'file:.engram/characters/alice.md');
    expect(file?.text).toBe('Alice：飞船的领航员，冷静，说话很少。');
    // The label the prompt puts before an item ("- ", a heading) is not part of its words.
    expect(kept.find((i) => i.id === 'preference:1')?.text?.startsWith('动作场景：偏好短句')).toBe(true);
    for (const i of kept) expect(i.text?.startsWith('- ')).toBe(false);
  });

  it('an item cut for the budget is not listed with words the model never got', async () => {
    const long = '很长的记忆。'.repeat(400);
    const layers = layersOf({ L4: { items: [{ id: 'memory:long', kind: 'memory', text: long }] } });
    const pkg = await assembleContext(input({ layers, budgets: { L4: 60 } }));
    const l4 = pkg.layers.find((l) => l.id === 'L4')!;
    expect(l4.items).toEqual([]);
    expect(l4.cut).toEqual([expect.objectContaining({ itemId: 'memory:long', reason: 'over-budget' })]);
  });
});
