import { expect, test, type Page } from '@playwright/test';
import { call, open, waitForEngine } from '../e2e/helpers';

/**
 * Issue 13, reliability suite — tabs: three tabs write while the tab that holds the database is closed, 20 times.
 * Every write a tab was told is saved must be stored exactly once, and every tab must see every write.
 * Playwright's contexts are private windows, where a closing tab's worker answers on after losing its files
 * (defect 0): the hardest case for the hand-over.
 */
const ROUNDS = 20;
const TABS = 3;
const WRITES_PER_TAB = 12;

type Engram = { engram: { call(m: string, i: unknown): Promise<{ ok: boolean }>; connection: { host: { role: string } | null } } };

const roleOf = (p: Page) => p.evaluate(() => (globalThis as unknown as Engram).engram.connection.host?.role ?? 'none');

/** Starts `WRITES_PER_TAB` appends from page `p` (4 at a time); each acknowledged one is reported to the test. */
function startWrites(p: Page, sessionId: string, tag: string): Promise<void> {
  return p
    .evaluate(
      async ([sessionId, tag, n]) => {
        const g = globalThis as unknown as Engram & { reportAck(tag: string): Promise<void> };
        const inflight = new Set<Promise<void>>();
        for (let i = 0; i < n; i++) {
          const label = `${tag}-${i}`;
          const write = g.engram
            .call('message.append', { sessionId, role: 'user', content: `${label} ${'memo '.repeat(400)}` })
            .then((r) => (r.ok ? g.reportAck(label) : undefined));
          inflight.add(write);
          void write.then(() => inflight.delete(write));
          if (inflight.size >= 4) await Promise.race(inflight);
        }
        await Promise.all(inflight);
      },
      [sessionId, tag, WRITES_PER_TAB] as const,
    )
    .catch(() => undefined); // the tab was closed under it: what it was told is in `acked`
}

const labels = async (p: Page, sessionId: string) =>
  (await call<{ content: string }[]>(p, 'message.list', { sessionId, limit: 1000 })).map((m) => m.content.split(' ')[0] as string);

test('three tabs write while the leader is closed 20 times: nothing lost, nothing twice, every tab sees every write', async ({ context }) => {
  const acked = new Set<string>();
  let ackedByClosingTabs = 0;
  const closing = new Set<string>();
  await context.exposeFunction('reportAck', (label: string) => {
    acked.add(label);
    if (closing.has(label.slice(0, label.lastIndexOf('-')))) ackedByClosingTabs++;
  });
  const pages: Page[] = [];
  for (let i = 0; i < TABS; i++) {
    const p = await context.newPage();
    await open(p);
    pages.push(p);
  }
  const sessions: string[] = [];
  let seq = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const s = await call<{ id: string }>(pages[0] as Page, 'session.create', { title: `round ${round}` });
    sessions.push(s.id);
    const roles = await Promise.all(pages.map(roleOf));
    const leaderAt = roles.indexOf('leader');
    expect(leaderAt, `round ${round}: one tab leads (${roles.join(', ')})`).toBeGreaterThanOrEqual(0);
    const tags = pages.map(() => `r${round}.t${seq++}`);
    closing.add(tags[leaderAt] as string);
    const writing = pages.map((p, i) => startWrites(p, s.id, tags[i] as string));
    // Close the leader while all three are writing.
    await expect.poll(() => [...acked].filter((l) => l.startsWith(`r${round}.`)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
    const leader = pages.splice(leaderAt, 1)[0] as Page;
    await leader.close();
    await Promise.all(writing);
    const replacement = await context.newPage();
    await open(replacement);
    pages.push(replacement);
  }

  // Every tab sees every acknowledged write exactly once — and so does the file after a reload.
  let duplicated = 0;
  const lost: string[] = [];
  const check = async (p: Page) => {
    for (const [round, id] of sessions.entries()) {
      const have = await labels(p, id);
      duplicated += have.length - new Set(have).size;
      lost.push(...[...acked].filter((l) => l.startsWith(`r${round}.`) && !have.includes(l)));
    }
  };
  for (const p of pages) await check(p);
  const reloaded = pages[0] as Page;
  await reloaded.reload();
  await waitForEngine(reloaded);
  await check(reloaded);
  const integrity = await call<{ ok: boolean; problems: string[] }>(reloaded, 'maintenance.integrityCheck');
  console.log(
    `[reliability] tabs: ${ROUNDS} leader tabs closed mid-write, ${TABS} tabs writing; ${acked.size} writes acknowledged ` +
      `(${ackedByClosingTabs} to the closing tab), ${lost.length} lost, ${duplicated} duplicated, ` +
      `checked from ${pages.length} tabs and after a reload; integrity_check ${integrity.ok ? 'ok' : integrity.problems.join('; ')}`,
  );
  expect(lost).toEqual([]);
  expect(duplicated).toBe(0);
  expect(integrity.ok).toBe(true);
  expect(acked.size).toBeGreaterThan(ROUNDS * TABS);
});
