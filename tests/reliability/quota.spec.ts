import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { call, callRaw, open, waitForEngine } from '../e2e/helpers';

/**
 * Issue 13, reliability suite — quota: Chromium's origin quota is overridden through CDP
 * (`Storage.overrideQuotaForOrigin`) at several sizes, mid-session and at start-up. A write that does not fit answers
 * QUOTA_EXCEEDED (never INTERNAL), every write that answered ok is stored, `PRAGMA integrity_check` stays ok, a start-up
 * on a full disk opens the real database read-only and says so (never an empty database), and writes resume once the
 * quota is raised.
 */
const MiB = 1024 * 1024;
const BIG = 'quota '.repeat(25_000); // 150 KB a message

const sessions = new WeakMap<Page, CDPSession>();
/** The override lasts as long as the CDP session that set it, so one session per page is kept open. */
async function setQuota(page: Page, quotaSize?: number) {
  let cdp = sessions.get(page);
  if (!cdp) sessions.set(page, (cdp = await page.context().newCDPSession(page)));
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', quotaSize === undefined ? { origin } : { origin, quotaSize });
}
const usage = (page: Page) => page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
const count = async (page: Page, sessionId: string) => (await call<unknown[]>(page, 'message.list', { sessionId, limit: 1000 })).length;

test('mid-session at several quotas: QUOTA_EXCEEDED, nothing acknowledged is lost, integrity ok, writes resume', async ({ page }) => {
  await open(page);
  const lines: string[] = [];
  for (const headroom of [1 * MiB, 3 * MiB, 6 * MiB]) {
    const s = await call<{ id: string }>(page, 'session.create', { title: `quota ${headroom}` });
    const before = await usage(page);
    await setQuota(page, before + headroom);
    let acked = 0;
    let refusal: { code: string; message: string } | undefined;
    for (let i = 0; i < 80 && !refusal; i++) {
      const res = await callRaw(page, 'message.append', { sessionId: s.id, role: 'user', content: `${i} ${BIG}` });
      if (res.ok) acked++;
      else refusal = res.error;
    }
    const small = await callRaw(page, 'message.append', { sessionId: s.id, role: 'user', content: 'a short line' });
    if (small.ok) acked++;
    const integrity = await call<{ ok: boolean; problems: string[] }>(page, 'maintenance.integrityCheck');
    const stored = await count(page, s.id);
    await setQuota(page); // back to the real quota: space was freed
    const resumed = await callRaw(page, 'message.append', { sessionId: s.id, role: 'user', content: 'after the space came back' });
    const after = await count(page, s.id);
    lines.push(
      `+${headroom / MiB} MiB over ${(before / MiB).toFixed(1)} MiB: ${acked} writes acknowledged, refused with ${refusal?.code ?? 'nothing'}, ` +
        `${stored} stored, integrity ${integrity.ok ? 'ok' : integrity.problems.join(';')}, after raising the quota ${resumed.ok ? 'writes resume' : resumed.ok === false ? resumed.error.code : ''}`,
    );
    expect(refusal?.code, `a write past +${headroom} bytes is refused as QUOTA_EXCEEDED`).toBe('QUOTA_EXCEEDED');
    expect(refusal?.message ?? '').not.toMatch(/internal/i);
    expect(stored).toBe(acked);
    expect(integrity.ok).toBe(true);
    expect(resumed.ok).toBe(true);
    expect(after).toBe(acked + 1);
  }
  console.log(`[reliability] quota mid-session: ${lines.join(' | ')}`);
});

test('start-up on a full disk: the real database opens read-only and says so; the quota raised, writes resume', async ({ page }) => {
  await open(page);
  const s = await call<{ id: string }>(page, 'session.create', { title: 'kept across a full disk' });
  for (let i = 0; i < 5; i++) await call(page, 'message.append', { sessionId: s.id, role: 'user', content: `kept ${i}` });
  const lines: string[] = [];
  for (const quota of [64 * 1024, 1 * MiB]) {
    await setQuota(page, quota);
    await page.reload();
    await waitForEngine(page);
    const status = await call<{ storage: string; readOnly: boolean }>(page, 'system.status');
    const banner = await page.getByTestId('read-only-banner').isVisible();
    const memoryBanner = await page.getByTestId('memory-banner').isVisible();
    const kept = await count(page, s.id);
    const write = await callRaw(page, 'message.append', { sessionId: s.id, role: 'user', content: 'while full' });
    const integrity = await call<{ ok: boolean; problems: string[] }>(page, 'maintenance.integrityCheck');
    // Read-only, the check is PRAGMA integrity_check alone (FTS5's own check is a write); the full one runs once the quota is back.
    const dbProblems = integrity.problems;
    lines.push(
      `quota ${quota / 1024} KiB: storage ${status.storage}, read-only ${status.readOnly}, notice ${banner ? 'shown' : 'missing'}, ` +
        `${kept}/5 messages readable, a write answers ${write.ok ? 'ok' : write.error.code}, integrity_check ${dbProblems.length ? dbProblems.join(';') : 'ok'}`,
    );
    expect(status.storage).toBe('opfs');
    expect(status.readOnly).toBe(true);
    expect(banner).toBe(true);
    expect(memoryBanner).toBe(false);
    expect(kept).toBe(5);
    expect(write.ok ? 'ok' : write.error.code).toBe('QUOTA_EXCEEDED');
    expect(dbProblems).toEqual([]);
    expect(integrity.ok).toBe(true);
  }
  await setQuota(page);
  await page.reload();
  await waitForEngine(page);
  const status = await call<{ readOnly: boolean }>(page, 'system.status');
  const write = await callRaw(page, 'message.append', { sessionId: s.id, role: 'user', content: 'space is back' });
  const integrity = await call<{ ok: boolean; problems: string[] }>(page, 'maintenance.integrityCheck');
  lines.push(
    `quota restored: read-only ${status.readOnly}, a write answers ${write.ok ? 'ok' : write.error.code}, ${await count(page, s.id)} messages, ` +
      `integrity ${integrity.ok ? 'ok' : integrity.problems.join(';')}`,
  );
  console.log(`[reliability] quota at start-up: ${lines.join(' | ')}`);
  expect(status.readOnly).toBe(false);
  expect(write.ok).toBe(true);
  expect(integrity.ok).toBe(true);
  expect(await count(page, s.id)).toBe(6);
  await expect(page.getByTestId('read-only-banner')).toBeHidden();
});
