import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { createCaller, type RawEndpoint } from '../../src/lib/engine/client/caller';
import type { EngineRequest } from '../../src/lib/engine/engine';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { bulkEpisodes, count, DAY } from '../../tests/acceptance/lifecycle-helpers';
import { createLoadWorkerApi, lifecycleLoadInWorker } from './load-worker';

/**
 * The lifecycle benchmark's load worker (issue 19), wired as in the harness page but over MessageChannels in Node:
 * the "DB worker" is the real engine served on two ports — the page's (the stall probe's calls) and the one the page
 * hands over for the load worker (connectJobs in the harness) — and the "load worker" is createLoadWorkerApi exposed
 * on a port. Which port each call arrived on says where it was sent from.
 */
describe('the lifecycle load in a load worker of its own, the stall probe in the page', () => {
  it('sends every load call and the clean-up over the handed-over port, only the probe over the page’s own, and reports both probes', async () => {
    const t = await createTestEngine();
    const old = expectOk(await t.engine.call('project.create', { name: 'last year' }));
    bulkEpisodes(t, { projectId: old.id, n: 60, prefix: 'ancient-', endAgoMs: 400 * DAY });
    const arrived: Record<'page' | 'handed-over', string[]> = { page: [], 'handed-over': [] };
    const serve = (via: keyof typeof arrived) => ({
      call: (req: EngineRequest) => {
        arrived[via].push(req.method);
        return t.engine.handle(req);
      },
    });
    const pagePort = new MessageChannel();
    Comlink.expose(serve('page'), pagePort.port1);
    const engine = createCaller(Comlink.wrap<RawEndpoint>(pagePort.port2));
    const loadPort = new MessageChannel();
    Comlink.expose(createLoadWorkerApi(), loadPort.port1);

    const load = await lifecycleLoadInWorker({
      worker: loadPort.port2,
      connectDb: (port) => Comlink.expose(serve('handed-over'), port),
      engine,
      run: { seed: 42, writes: 40 },
    });

    expect(load.errors).toEqual({});
    expect(load.calls).toBe(40 + 20 + 4);
    if (load.cleanup.state !== 'done') throw new Error(`clean-up: ${JSON.stringify(load.cleanup)}`);
    // The clean-up did its work: every ancient episode (past both TTLs) compressed, then deleted.
    expect(count(t, 'project_id = ?', [old.id])).toBe(0);
    const tally = (xs: string[]) => xs.reduce<Record<string, number>>((n, m) => ((n[m] = (n[m] ?? 0) + 1), n), {});
    // The load worker's port: the set-up, the 64 timed calls and lifecycle.run — and no probe.
    expect(tally(arrived['handed-over'])).toEqual({ 'project.create': 2, 'document.create': 2, 'rules.add': 20, 'episode.record': 40, 'episode.query': 20, 'rules.list': 4, 'lifecycle.run': 1 });
    // The page's port: the probes only, each one counted in a report (the baseline's and the clean-up's).
    expect(load.baselineStall?.probes).toBeGreaterThan(0);
    expect(load.stall?.probes).toBeGreaterThan(0);
    expect(tally(arrived.page)).toEqual({ 'session.list': load.baselineStall!.probes + load.stall!.probes });
    // The probe timed the clean-up the load worker ran (its detail came back across both hops) while the load went on.
    expect(load.stall?.detail.slices).toBeGreaterThan(0);
    expect(load.baselineStall?.detail).toEqual({});
    expect(load.duringCleanupMs['episode.record'].length).toBeGreaterThan(0);
    pagePort.port1.close();
    pagePort.port2.close();
    loadPort.port1.close();
    loadPort.port2.close();
  }, 60_000);
});
