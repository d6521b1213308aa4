import { describe, expect, it } from 'vitest';
import { createAdmission } from './admission';

describe('memory query admission (003 并发查询最大 32)', () => {
  it('admits up to the limit, refuses the rest at once, runs the admitted in arrival order, and frees places as they finish', async () => {
    const admission = createAdmission(3);
    const ran: number[] = [];
    const settled: string[] = [];
    const runs = Array.from({ length: 5 }, (_, i) =>
      admission
        .run(() => {
          ran.push(i);
          return i;
        })
        .then((r) => {
          settled.push(r.admitted ? `ran ${i}` : `refused ${i} (${r.waiting} waiting)`);
          return r;
        }),
    );
    expect(admission.waiting).toBe(3);
    const results = await Promise.all(runs);
    expect(results.map((r) => r.admitted)).toEqual([true, true, true, false, false]);
    expect(ran).toEqual([0, 1, 2]);
    // The refused heard at once, before any admitted query ran.
    expect(settled.slice(0, 2)).toEqual(['refused 3 (3 waiting)', 'refused 4 (3 waiting)']);
    expect(admission.waiting).toBe(0);
    expect((await admission.run(() => 'again')).admitted).toBe(true);
  });

  it('a query that throws still frees its place', async () => {
    const admission = createAdmission(1);
    await expect(admission.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(admission.waiting).toBe(0);
  });
});
