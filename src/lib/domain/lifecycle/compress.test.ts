import { describe, expect, it } from 'vitest';
import { compressedSummary, SUMMARY_MAX_CHARS, type CompressibleEpisode } from './compress';

const style = { units: 40, sentence: 11.5, exclaim: 0.1, firstPerson: 0.8, colloquial: 0.2, literary: 0, ornate: 0.05, cjk: 1 };
const base: CompressibleEpisode = {
  kind: 'skill-run', skillUsed: 'continue', sceneType: 'action', implicit: 'weak-positive', firstSignal: null, valence: 0.4, editDistance: 0.15,
  selectedIndex: 1, candidateCount: 3, explicit: null, uses: 1, createdAt: Date.UTC(2026, 0, 17),
  features: { candidates: [style, { ...style, sentence: 9 }, style], stated: [{ dimension: 'pacing', pole: 'fast' }] },
};

describe('compressed episode summary (003 压缩策略)', () => {
  it('keeps scene type, skill, feedback, preference signals and style features, deterministically', () => {
    const s = compressedSummary(base);
    expect(s).toContain('scene action · skill continue · 2026-01-17');
    expect(s).toContain('feedback weak-positive · valence 0.4 · edit 15%');
    expect(s).toContain('chose candidate 2 of 3');
    expect(s).toContain('stated: pacing=fast');
    expect(s).toContain('kept style: sentence 9,');
    expect(compressedSummary(base)).toBe(s);
  });

  it('a rejection and an undo say so; long explicit feedback is cut; the whole stays within ~200 tokens', () => {
    const s = compressedSummary({ ...base, selectedIndex: -1, implicit: 'delayed-negative', firstSignal: 'strong-positive', explicit: '太长了'.repeat(200) });
    expect(s).toContain('rejected all 3 candidates');
    expect(s).toContain('first strong-positive');
    expect(s).toContain('said: 太长了');
    expect([...s].length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });
});
