import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../text/tokens';
import { fitToBudget, trimToTokens, type Candidate } from './budget';

const counter = createTokenCounter();

const PARAS = ['第一段：飞船缓缓驶入轨道站。灯光一盏盏亮起。', '第二段：Alice 走向控制台。她没有说话。', '第三段：警报突然响了起来。所有人都停下了手里的工作。'];
const DOC = PARAS.join('\n');

describe('trimToTokens: project settings trimmed to budget, never mid-sentence', () => {
  it('keeps whole paragraphs while they fit', () => {
    const two = `${PARAS[0]}\n${PARAS[1]}`;
    const max = counter.count(two);
    expect(trimToTokens(DOC, max, counter)).toBe(two);
  });

  it('falls back to whole sentences when the first paragraph does not fit', () => {
    const first = '第一段：飞船缓缓驶入轨道站。';
    expect(trimToTokens(DOC, counter.count(first) + 1, counter)).toBe(first);
  });

  it('gives nothing when not even the first sentence fits', () => {
    expect(trimToTokens(DOC, 3, counter)).toBe('');
  });

  it('returns the text untouched when it fits', () => {
    expect(trimToTokens(DOC, counter.count(DOC), counter)).toBe(DOC);
  });
});

const cand = (itemId: string, body: string, extra: Partial<Candidate> = {}): Candidate => ({
  itemId,
  label: `[${itemId}] `,
  body,
  priority: 0,
  required: false,
  trimmable: false,
  ...extra,
});

function fit(candidates: Candidate[], budget: number, recentFirst = false) {
  const render = (kept: readonly { rendered: string }[]) => ['## head', ...kept.map((k) => k.rendered)].join('\n\n');
  const res = fitToBudget({ candidates, budget, counter, overhead: counter.count('## head\n\n'), render, separator: '\n\n', recentFirst });
  return { ...res, tokens: counter.count(render(res.kept)) };
}

describe('fitToBudget with real token counts', () => {
  const items = ['用户上周决定把第三章改成倒叙。', '讨论了第三章的节奏问题。', '用户喜欢短句。', '用户不喜欢感叹号。'].map((t, i) => cand(`m${i}`, t));

  it('keeps everything within a generous budget', () => {
    const res = fit(items, 1000);
    expect(res.kept.map((k) => k.itemId)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(res.cut).toEqual([]);
  });

  it('drops the lowest-ranked items first and never exceeds the budget', () => {
    const all = fit(items, 1000).tokens;
    const res = fit(items, all - 5);
    expect(res.tokens).toBeLessThanOrEqual(all - 5);
    expect(res.kept.map((k) => k.itemId)).toEqual(['m0', 'm1', 'm2']);
    expect(res.cut).toEqual([{ itemId: 'm3', reason: 'over-budget', tokensBefore: counter.count('[m3] 用户不喜欢感叹号。'), tokensAfter: 0 }]);
  });

  it('keeps higher priority first, and the oldest go first when recentFirst', () => {
    const prioritised = items.map((c, i) => (i === 3 ? { ...c, priority: 5 } : c));
    const all = fit(items, 1000).tokens;
    expect(fit(prioritised, all - 5).kept.map((k) => k.itemId)).toEqual(['m0', 'm1', 'm3']);
    expect(fit(items, all - 5, true).kept.map((k) => k.itemId)).toEqual(['m1', 'm2', 'm3']);
  });

  it('keeps required items even over budget, and trims trimmable ones at a boundary', () => {
    const res = fit([cand('task', '润色这段', { required: true }), cand('doc', DOC, { trimmable: true })], counter.count(`## head\n\n[task] 润色这段\n\n[doc] ${PARAS[0]}`) + 2);
    expect(res.kept.map((k) => k.rendered)).toEqual(['[task] 润色这段', `[doc] ${PARAS[0]}`]);
    expect(res.cut).toMatchObject([{ itemId: 'doc', reason: 'trimmed' }]);
    const tiny = fit([cand('task', '润色这段', { required: true }), cand('doc', DOC)], 1);
    expect(tiny.kept.map((k) => k.itemId)).toEqual(['task']);
  });
});
