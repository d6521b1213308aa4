/**
 * The lifecycle benchmark's foreground load in a worker of its own (issue 19). The stall probe (stall.ts: a
 * session.list every 5 ms) times what a person would wait; with the 15,000-call load generator in the same page
 * (episode.record / episode.query / rules.list, corpus text, result handling) a probe's answer waited for the
 * generator's own main-thread work too — "the answer's way back" in the worker timeline's causes, 26–46 ms of
 * several worst waits — although a person's page runs no such generator. Here the page keeps the probe (and the
 * report), and the load runs in a load worker that reaches the DB worker over a MessagePort of its own, the way the
 * app's jobs worker does (ui/app/connection.svelte.ts: DbWorkerApi.connectJobs exposes the engine's calls on a
 * transferred port). Each load call is still a full round trip to the same DB worker, timed where it is sent.
 *
 *   page ── probe: session.list ─────────────▶ DB worker
 *   load worker ── episode.record / … (port) ─▶ DB worker
 *   load worker ── probe(job, run) ──▶ page (stallDuring around `run`, which the load worker runs: lifecycle.run)
 */
import * as Comlink from 'comlink';
import { createCaller, type EngineCaller, type RawEndpoint } from '../../src/lib/engine/client/caller';
import { lifecycleLoad, type LifecycleLoadReport, type LifecycleLoadRun, type StallProbe } from './lifecycle-load';
import { stallDuring, type ReadTimeline } from './stall';

type Progress = (writes: number, of: number, cleaning: boolean) => void;

/** What the load worker (load.worker.ts) exposes over Comlink. */
export interface LoadWorkerApi {
  /** `db`: a port the DB worker serves the engine's calls on; `probe` and `progress`: the page's (Comlink proxies). */
  lifecycleLoad(db: MessagePort, probe: StallProbe, progress: Progress, run: LifecycleLoadRun): Promise<LifecycleLoadReport>;
}

export function createLoadWorkerApi(): LoadWorkerApi {
  return {
    async lifecycleLoad(db, probe, progress, run) {
      const remote = Comlink.wrap<RawEndpoint>(db);
      const pageProbe = probe as Comlink.Remote<StallProbe>;
      const pageProgress = progress as Comlink.Remote<Progress>;
      try {
        return await lifecycleLoad({
          engine: createCaller({ call: (req) => remote.call(req) }),
          ...run,
          // The probe runs in the page; the job it times (the clean-up, or the baseline's wait) runs here.
          probe: (job, work) => pageProbe(job, Comlink.proxy(work)),
          progress: (n, of, cleaning) => void pageProgress(n, of, cleaning),
        });
      } finally {
        // The DB worker closes its end of the port on release; the page's two proxies are let go of too.
        remote[Comlink.releaseProxy]();
        pageProbe[Comlink.releaseProxy]();
        pageProgress[Comlink.releaseProxy]();
      }
    },
  };
}

/**
 * The page's side: a new channel, one end to the DB worker (`connectDb`: DbWorkerApi.connectJobs in the harness),
 * the other to the load worker with the probe, which runs here over the page's own `engine` and reads `timeline`.
 */
export async function lifecycleLoadInWorker(opts: {
  worker: Comlink.Endpoint;
  connectDb: (port: MessagePort) => unknown;
  engine: EngineCaller;
  timeline?: ReadTimeline;
  progress?: Progress;
  run: LifecycleLoadRun;
}): Promise<LifecycleLoadReport> {
  const load = Comlink.wrap<LoadWorkerApi>(opts.worker);
  const channel = new MessageChannel();
  await opts.connectDb(Comlink.transfer(channel.port1, [channel.port1]));
  const probe: StallProbe = async (job, run) => {
    try {
      return await stallDuring(opts.engine, job, () => run(), opts.timeline);
    } finally {
      (run as Comlink.Remote<typeof run>)[Comlink.releaseProxy]();
    }
  };
  try {
    return await load.lifecycleLoad(
      Comlink.transfer(channel.port2, [channel.port2]),
      Comlink.proxy(probe),
      Comlink.proxy(opts.progress ?? (() => undefined)),
      opts.run,
    );
  } finally {
    load[Comlink.releaseProxy]();
  }
}
