import { describe, expect, it } from 'vitest';
import { styleFeatures } from './features';

describe('style features (zh and en)', () => {
  it('measures sentence length in units: CJK characters, Latin words', () => {
    expect(styleFeatures('他出拳。她闪开。刀落地。').sentence).toBe(3);
    expect(styleFeatures('He swung. She ducked. The blade fell.').sentence).toBe(2.3);
    expect(styleFeatures('他出拳。').cjk).toBe(1);
  });

  it('reads exclamations, person, register and ornament', () => {
    expect(styleFeatures('快跑！别回头！').exclaim).toBe(1);
    expect(styleFeatures('我走进院子，我们都笑了。').firstPerson).toBe(1);
    expect(styleFeatures('他走进院子，她笑了。').firstPerson).toBe(0);
    expect(styleFeatures('今天天气很好。').firstPerson).toBeNull();
    // A first-person narrator still writes 她说; what is quoted does not count.
    expect(styleFeatures('我看着她。我没有说话。“他走了。”她说。').firstPerson).toBe(0.67);
    expect(styleFeatures('“我不去。”她说。他点点头。').firstPerson).toBe(0);
    expect(styleFeatures('咱们走吧，啥事儿都没有啊，别担心嘛。').colloquial).toBeGreaterThan(styleFeatures('吾等遂行，亦无他事矣。').colloquial);
    expect(styleFeatures('吾等遂行，亦无他事矣。').literary).toBeGreaterThan(0);
    expect(styleFeatures('金色的阳光静静地洒在碧绿的湖面上，微微的风轻轻地吹过。').ornate).toBeGreaterThan(styleFeatures('阳光照在湖上。风吹过。').ornate);
  });

  it('is all zeros for empty text', () => {
    expect(styleFeatures('')).toMatchObject({ units: 0, sentence: 0, firstPerson: null });
  });
});

describe('003 inputContext summary', () => {
  it('keeps a short passage, and the first and last sentences of a long one', async () => {
    const { summarizePassage } = await import('./summary');
    expect(summarizePassage('他出拳。\n她闪开。')).toBe('他出拳。 她闪开。');
    const long = `开头的一句话。${'中间的内容很多。'.repeat(60)}最后一句。`;
    const s = summarizePassage(long);
    expect(s).toBe('开头的一句话。 … 最后一句。');
    expect(Array.from(summarizePassage('字'.repeat(500))).length).toBe(200);
  });
});

describe('styleFeatures counts each cue once', () => {
  it('我们 is one first-person cue, not 我 as well; 他们 one third-person; a sentence of both counts as first person', () => {
    // Narration sentences naming someone: 1 (我们 + 我) first, 2 (他们 她) third, 3 (我 + 他) first → 2 of 3 first.
    expect(styleFeatures('我们和我走了。他们看着她。我对他笑。').firstPerson).toBe(0.67);
    expect(styleFeatures('他们他们她们。').firstPerson).toBe(0);
  });

  it('colloquial markers: every occurrence, never overlapping ones twice', () => {
    const f = styleFeatures('好吧吧吧。走啊啊。得了得了。');
    // 吧×3 + 啊×2 + 得了×2 = 7 markers per max(units, 20) = 20 units → 35 per 100.
    expect(f.colloquial).toBe(35);
  });
});

