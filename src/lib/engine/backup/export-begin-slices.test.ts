import { afterEach, describe, expect, it } from 'vitest';
import { validateExport } from '../../domain/backup';
import type { ExportScope } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import { recordTimeline, timelineBetween } from '../store/worker-timeline';
import { expectOk } from '../testing';
import { createExportService } from './export-service';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, drainExport, type BackupTestEngine } from './testing';

/**
 * Issue 16: `backup.exportBegin` sizes the scope and captures its rows in bounded steps with the worker free
 * between slices (at a million turns it held the worker 9 s, then refused the file as too large). The clock is
 * injected and counts calls, so a slice is a number of steps, not a time: the tests count the work in each.
 */
const PAGE = 16;
const STEPS_PER_SLICE = 3; // budget 3 on a clock that ticks once per reading: three steps, then a yield

type Slice = { phase: 'size' | 'select'; examined: number; sql: string[] };

function spyOn(driver: SqlDriver, current: () => string[]): SqlDriver {
  const note = (sql: string) => current().push(sql);
  return {
    ...driver,
    exec: (sql) => (note(sql), driver.exec(sql)),
    run: (sql, p) => (note(sql), driver.run(sql, p)),
    all: (sql, p) => (note(sql), driver.all(sql, p)),
    get: (sql, p) => (note(sql), driver.get(sql, p)),
  };
}

function slicedService(t: BackupTestEngine, opts: { maxBytes?: number; onSlice?: (s: Slice) => void } = {}) {
  let tick = 0;
  let sql: string[] = [];
  const slices: Slice[] = [];
  const driver = spyOn(t.driver, () => sql);
  const service = createExportService({
    env: { ...t.engine.env, driver },
    files: t.files,
    maxBytes: opts.maxBytes,
    beginSlices: {
      now: () => ++tick,
      budgetMs: STEPS_PER_SLICE,
      pageRows: PAGE,
      onSlice: (s) => {
        const slice = { ...s, sql };
        slices.push(slice);
        sql = [];
        opts.onSlice?.(slice);
      },
    },
  });
  return { service, slices, allSql: () => [...slices.flatMap((s) => s.sql), ...sql] };
}

const drain = async (service: ReturnType<typeof createExportService>, exportId: string) => (await drainExport(service, exportId)).text;

async function filled(turns = 120) {
  const t = await createBackupTestEngine();
  const f = await fillEveryTable(t);
  for (let i = 0; i < turns; i++) {
    expectOk(await t.engine.call('message.append', { sessionId: f.sessionIds[i % 2] as string, role: 'user', content: `turn ${i}: parseConfig 登录超时 src/app-${i % 7}.ts` }));
  }
  return { t, f };
}

const selectionSql = /CREATE TEMP TABLE|INSERT (OR IGNORE )?INTO temp\./;
const tempTables = (t: BackupTestEngine) =>
  t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_temp_schema WHERE type = 'table' AND name != 'session_changes'")?.n ?? 0;

describe('backup.exportBegin in bounded slices (issue 16)', () => {
  it('refuses a scope over the limit from its size alone: no selection statement runs, and the sizing stops where it crosses', async () => {
    const { t } = await filled();
    const total = t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n ?? 0;
    const { service, slices, allSql } = slicedService(t, { maxBytes: 4_000 });
    await expect(service.begin({ kind: 'all' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fields: ['scope'], reason: 'too-large' } });
    expect(allSql().filter((s) => selectionSql.test(s))).toEqual([]);
    expect(slices.every((s) => s.phase === 'size')).toBe(true);
    // It stopped once the running size crossed 4 kB: it did not read the whole store first.
    expect(slices.reduce((n, s) => n + s.examined, 0)).toBeLessThan(total);
    expect(tempTables(t)).toBe(0);
  });

  it.each<[string, (f: Awaited<ReturnType<typeof filled>>['f']) => ExportScope]>([
    ['the whole store', () => ({ kind: 'all' })],
    ['a project', (f) => ({ kind: 'project', id: f.projectId })],
    ['a conversation', (f) => ({ kind: 'session', id: f.sessionIds[0] as string })],
  ])('captures %s in slices of bounded work, timers running between them, and writes the same file as the engine', async (_, scopeOf) => {
    const { t, f } = await filled();
    const scope = scopeOf(f);
    let timers = 0;
    let timerSeen = false;
    const { service, slices } = slicedService(t);
    const beat = setInterval(() => timers++, 0);
    const started = await service.begin(scope).finally(() => clearInterval(beat));
    timerSeen = timers > 0;
    expect(timerSeen).toBe(true);
    expect(slices.length).toBeGreaterThan(10);
    for (const s of slices) {
      // A step reads at most a page; a slice runs at most three steps (and at most three statements each).
      expect(s.examined).toBeLessThanOrEqual(STEPS_PER_SLICE * PAGE);
      // (The first slice also carries begin's prologue: the target check and each table's largest rowid, one seek each.)
      const steps = s.sql.filter((q) => !/^SELECT MAX\(rowid\)|^SELECT 1 FROM (projects|sessions) WHERE id/.test(q));
      expect(steps.length).toBeLessThanOrEqual(STEPS_PER_SLICE * 3);
    }
    const sizeEnd = slices.findIndex((s) => s.phase === 'select');
    expect(sizeEnd).toBeGreaterThan(0);
    expect(slices.slice(0, sizeEnd).flatMap((s) => s.sql).filter((s) => selectionSql.test(s))).toEqual([]);
    const text = await drain(service, started.exportId);

    // The engine's own begin (default slices) exports the same bytes with the same counts.
    const reference = expectOk(await t.engine.call('backup.exportBegin', { scope }));
    expect(started.tables).toEqual(reference.tables);
    expect(started.estimatedBytes).toBe(reference.estimatedBytes);
    let refText = '';
    for (let done = false; !done; ) {
      const c = expectOk(await t.engine.call('backup.exportChunk', { exportId: reference.exportId, maxChars: 16_384 }));
      refText += c.text;
      done = c.done;
    }
    expect(text).toBe(refText);
    const { file } = validateExport(JSON.parse(text));
    expect(file.tables.messages.length).toBe(started.tables.messages);
    expect(started.tables.messages).toBeGreaterThan(0);
    expect(tempTables(t)).toBe(0);
  });

  it('rows written while it is starting are not in the export, and the file still holds together', async () => {
    const { t, f } = await filled();
    let late: Promise<unknown> | null = null;
    let lateSession: string | null = null;
    const { service } = slicedService(t, {
      onSlice: (s) => {
        if (s.phase !== 'select' || late) return;
        // Runs while begin yields between two slices.
        late = (async () => {
          const s2 = expectOk(await t.engine.call('session.create', { title: 'written while the export started' }));
          lateSession = s2.id;
          expectOk(await t.engine.call('message.append', { sessionId: s2.id, role: 'user', content: 'late' }));
          expectOk(await t.engine.call('message.append', { sessionId: f.sessionIds[0] as string, role: 'user', content: 'late too' }));
        })();
      },
    });
    const started = await service.begin({ kind: 'all' });
    await late;
    expect(lateSession).not.toBeNull();
    const { file } = validateExport(JSON.parse(await drain(service, started.exportId)));
    expect(file.tables.sessions.some((s) => s.id === lateSession)).toBe(false);
    expect(file.tables.messages.some((m) => m.content === 'late' || m.content === 'late too')).toBe(false);
    expect(file.tables.messages.length).toBe(started.tables.messages);
  });
});

describe('backup.exportBegin’s slices on the worker’s timeline (stall-trace.ts)', () => {
  afterEach(() => recordTimeline(false));

  it('notes each slice while a benchmark records, so a stall probe sees them as the job’s and not as time the worker ran nothing', async () => {
    const { t } = await filled(40);
    let slices = 0;
    // The real clock (the timeline's), a budget of 0: one step per slice.
    const service = createExportService({ env: t.engine.env, files: t.files, beginSlices: { budgetMs: 0, pageRows: PAGE, onSlice: () => slices++ } });
    recordTimeline(true);
    const t0 = performance.timeOrigin + performance.now();
    const { exportId } = await service.begin({ kind: 'all' });
    const noted = timelineBetween(t0, performance.timeOrigin + performance.now()).filter((e) => e.kind === 'slice');
    expect(slices).toBeGreaterThan(3);
    expect(noted).toHaveLength(slices);
    expect(noted.every((e) => e.at >= t0 && e.ms >= 0)).toBe(true);
    service.cancel(exportId);
  });
});
