import { expect, test, type Page } from '@playwright/test';
import { call, open, waitForEngine } from '../e2e/helpers';

/**
 * Issue 13, reliability suite — crash: a tab writes a burst and is reloaded or closed at a random point of it, N
 * times. Every write the page was told is saved (stored, or queued in the outbox) must end up stored exactly once —
 * after the next start has replayed the outbox — and `PRAGMA integrity_check` must stay ok.
 */
const ROUNDS = 12;
const WRITES = 16;

type Engram = { engram: { call(m: string, i: unknown): Promise<{ ok: boolean }> } };

function burst(p: Page, sessionId: string, tag: string): Promise<void> {
  return p
    .evaluate(
      async ([sessionId, tag, n]) => {
        const g = globalThis as unknown as Engram & { reportAck(label: string): Promise<void> };
        const inflight = new Set<Promise<void>>();
        for (let i = 0; i < n; i++) {
          const label = `${tag}-${i}`;
          const w = g.engram.call('message.append', { sessionId, role: 'user', content: `${label} ${'crash '.repeat(300)}` }).then((r) => (r.ok ? g.reportAck(label) : undefined));
          inflight.add(w);
          void w.then(() => inflight.delete(w));
          if (inflight.size >= 4) await Promise.race(inflight);
        }
        await Promise.all(inflight);
      },
      [sessionId, tag, WRITES] as const,
    )
    .catch(() => undefined); // the tab went away under it
}

test(`a tab reloaded or closed at a random point of a write burst, ${ROUNDS} times: every acknowledged write stored once`, async ({ context }) => {
  const acked = new Set<string>();
  await context.exposeFunction('reportAck', (label: string) => void acked.add(label));
  let page = await context.newPage();
  await open(page);
  const sessions: string[] = [];
  let reloads = 0;
  let closes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const s = await call<{ id: string }>(page, 'session.create', { title: `crash ${round}` });
    sessions.push(s.id);
    const cutAfter = 1 + Math.floor(Math.random() * (WRITES - 2));
    const writing = burst(page, s.id, `r${round}`);
    await expect.poll(() => [...acked].filter((l) => l.startsWith(`r${round}-`)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(cutAfter);
    if (round % 2 === 0) {
      await page.reload();
      reloads++;
    } else {
      await page.close();
      closes++;
      page = await context.newPage();
    }
    await writing;
    if (page.url() === 'about:blank') await open(page);
    else await waitForEngine(page);
  }
  // The next start replays what the outbox held; then every acknowledged write is there exactly once.
  const missing = async () => {
    const out: string[] = [];
    for (const [round, id] of sessions.entries()) {
      const have = (await call<{ content: string }[]>(page, 'message.list', { sessionId: id, limit: 1000 })).map((m) => m.content.split(' ')[0]);
      out.push(...[...acked].filter((l) => l.startsWith(`r${round}-`) && !have.includes(l)));
    }
    return out;
  };
  await expect.poll(missing, { timeout: 30_000 }).toEqual([]);
  let duplicated = 0;
  let stored = 0;
  for (const id of sessions) {
    const have = (await call<{ content: string }[]>(page, 'message.list', { sessionId: id, limit: 1000 })).map((m) => m.content.split(' ')[0]);
    stored += have.length;
    duplicated += have.length - new Set(have).size;
  }
  const integrity = await call<{ ok: boolean; problems: string[] }>(page, 'maintenance.integrityCheck');
  console.log(
    `[reliability] crash: ${ROUNDS} bursts of ${WRITES} writes cut by ${reloads} reloads and ${closes} tab closes at random points; ` +
      `${acked.size} acknowledged, ${stored} stored, 0 lost, ${duplicated} duplicated; integrity_check ${integrity.ok ? 'ok' : integrity.problems.join('; ')}`,
  );
  expect(duplicated).toBe(0);
  expect(integrity.ok).toBe(true);
  expect(acked.size).toBeGreaterThanOrEqual(ROUNDS);
});
