import { describe, expect, it } from 'vitest';
import { compareRecall, type RecallAnswer } from './recall-compare';

const ans = (ids: string[], whys: unknown[] = ids.map((id) => ({ id })), degraded = false): RecallAnswer => ({ ids, whys, degraded });

describe('compareRecall', () => {
  it('counts identical answers, same order and shared ids per half (even / odd queries)', () => {
    const a = [ans(['1', '2']), ans(['3', '4']), ans(['5', '6']), ans(['7'])];
    const b = [ans(['1', '2']), ans(['4', '3']), ans(['5', '6'], [{ id: '5' }, { id: 'other' }]), ans(['7', '8'])];
    const [even, odd] = compareRecall(a, b);
    expect(even).toEqual({ queries: 2, identical: 1, sameOrder: 2, shared: 4, total: 4 });
    expect(odd).toEqual({ queries: 2, identical: 0, sameOrder: 0, shared: 3, total: 4 });
  });

  it('tells a degraded answer from a ranked one with the same ids', () => {
    const [even] = compareRecall([ans(['1'])], [ans(['1'], undefined, true)]);
    expect(even.identical).toBe(0);
    expect(even.sameOrder).toBe(1);
  });

  it('refuses runs of different lengths', () => {
    expect(() => compareRecall([ans([])], [])).toThrow(/1 answers vs 0/);
  });
});
