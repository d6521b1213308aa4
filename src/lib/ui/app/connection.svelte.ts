import type { MemoryFault } from '../../engine/store/memory-faults';
import * as Comlink from 'comlink';
import type { IpcError } from '../../domain/errors';
import { createCaller, type EngineCaller } from '../../engine/client/caller';
import type { HostEvent, HostInfo } from '../../engine/host/messages';

export type ChangeEvent = Extract<HostEvent, { type: 'change' }>;
import type { DbWorkerApi } from '../../engine/host/worker-api';
import type { JobsWorkerApi } from '../../engine/jobs/worker-api';
import type { JobProgress } from '../../engine/jobs/types';
import { notifyCleanupFailure } from './cleanup-notice';
import { isUserWrite } from '../../engine/protocol/contract';
import type { SystemStatus } from '../../engine/protocol/types';
import type { EmbeddingStatus } from '../../engine/embeddings/types';
import { createModelSync } from './model-sync';
import { modelSettings } from './model-settings.svelte';
import { localDb } from '../local/local-db';
import { createOutbox, type Outbox, type RefusedWrite, type RetryOutcome } from '../local/outbox';

const STATUS_RETRY_MS = 2000;
/** While the database is read-only for want of room, how often the page looks whether saving is back. */
const READ_ONLY_RECHECK_MS = 5000;

/**
 * The page's one connection to the engine: starts the DB worker and the jobs worker, joins them with a
 * MessagePort, and turns worker events into reactive state.
 *
 *   page ──Comlink──▶ db.worker ◀──MessagePort── jobs.worker
 */
class Connection {
  host = $state<HostInfo | null>(null);
  status = $state<SystemStatus | null>(null);
  startupError = $state<IpcError | null>(null);
  /** Bumps on every write anywhere (this tab or another): views re-query when it changes. */
  revision = $state(0);
  jobs = $state<Record<string, JobProgress>>({});
  /** Meaning-based recall (issue 18): the embedding model in force and how far its background fill has come. */
  embeddings = $state.raw<EmbeddingStatus | null>(null);
  outboxCount = $state(0);
  /** Writes the engine refused while the outbox drained: kept for the person to retry or discard. */
  outboxRefused = $state.raw<RefusedWrite[]>([]);

  #caller: EngineCaller | null = null;
  #jobs: Comlink.Remote<JobsWorkerApi> | null = null;
  #outbox: Outbox | null = null;
  #started = false;
  #askedPersist = false;
  #statusRetry: ReturnType<typeof setTimeout> | null = null;
  #changeListeners = new Set<(change: ChangeEvent) => void>();
  /** The model settings as both workers must know them: once per load, once per real change (model-sync.ts). */
  #modelSync: ReturnType<typeof createModelSync> | null = null;

  /**
   * Every write's change event, with the conversations it changed (issue 16): a list of them updates those
   * rows instead of reading itself again. Returns the unsubscribe.
   */
  onChange(listener: (change: ChangeEvent) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  get ready(): boolean {
    return this.status !== null;
  }

  get engine(): EngineCaller {
    if (!this.#caller) throw new Error('engine not connected');
    return this.#caller;
  }

  get outbox(): Outbox {
    if (!this.#outbox) throw new Error('engine not connected');
    return this.#outbox;
  }

  get jobsApi(): Comlink.Remote<JobsWorkerApi> | null {
    return this.#jobs;
  }

  start(opts: { persistent: boolean; fault?: MemoryFault }): void {
    if (this.#started) return;
    this.#started = true;
    const dbWorker = new Worker(new URL('../../../../workers/db.worker.ts', import.meta.url), { type: 'module', name: 'engram-db' });
    const db = Comlink.wrap<DbWorkerApi>(dbWorker);
    const jobsWorker = new Worker(new URL('../../../../workers/jobs.worker.ts', import.meta.url), { type: 'module', name: 'engram-jobs' });
    const jobs = Comlink.wrap<JobsWorkerApi>(jobsWorker);
    this.#jobs = jobs;
    this.#caller = createCaller({ call: (req) => db.call(req) });
    this.#outbox = createOutbox(localDb(), this.#caller);

    // The jobs worker phrases learned rules with the model the person configured (issue 17), and both workers use the
    // embedding model (issue 18): they follow the settings, here and as they change in any tab — each real change once.
    const sync = createModelSync({
      configureEngine: async (endpoint) => {
        const res = await this.engine.call('embeddings.configure', { endpoint });
        if (res.ok) this.embeddings = res.data;
        return res.ok;
      },
      configureJobs: (endpoint) => void jobs.configureEmbeddings(endpoint),
      setJobsModel: (settings) => void jobs.setModel(settings),
    });
    this.#modelSync = sync;
    void db.subscribe(Comlink.proxy((event: HostEvent) => this.#onHostEvent(event)));
    void db.start(opts);
    const channel = new MessageChannel();
    void db.connectJobs(Comlink.transfer(channel.port1, [channel.port1]));
    void jobs.start(
      Comlink.transfer(channel.port2, [channel.port2]),
      Comlink.proxy((p: JobProgress) => {
        this.jobs = { ...this.jobs, [p.job]: p };
        // 003 清理任务失败触发告警: a failed memory clean-up is never silent (issue 19).
        if (p.job === 'lifecycle' && p.state === 'failed') notifyCleanupFailure(p.error);
      }),
    );
    // Once loaded, every value the store takes (load, save, another tab's save, liveQuery's echoes): sync drops repeats.
    $effect.root(() => {
      $effect(() => {
        const settings = modelSettings.current;
        if (modelSettings.loaded) sync.settings(settings);
      });
    });
    // A dying tab lets go of the database lock and the jobs lock at once, so another tab (or the reloaded page)
    // takes over without waiting for the old document to be torn down.
    window.addEventListener('pagehide', (e: PageTransitionEvent) => {
      if (e.persisted) return;
      dbWorker.terminate();
      jobsWorker.terminate();
    });
    for (const type of ['keydown', 'pointerdown'] as const) {
      addEventListener(type, () => void jobs.activity(), { passive: true });
    }
    void this.#refreshStatus();
  }

  /** The fill's progress (the settings page asks while it is open). */
  async refreshEmbeddings(): Promise<void> {
    if (!this.#caller) return;
    const res = await this.#caller.call('embeddings.status', {});
    if (res.ok) this.embeddings = res.data;
  }

  async #refreshStatus(): Promise<void> {
    const res = await this.engine.call('system.status', {});
    if (res.ok) {
      this.status = res.data;
      this.startupError = null;
      // The engine answers now: it hears the embedding endpoint if it has not yet (model-sync.ts).
      this.#modelSync?.engineReady();
      // The engine switches to the writable database by itself once there is room; the page follows.
      if (res.data.readOnly) this.#retryStatusSoon(READ_ONLY_RECHECK_MS);
      // Kept writes wait for a database that can take them.
      else await this.outbox.drain();
      await this.refreshOutbox();
    } else {
      // Shown, never swallowed: without a database nothing the user writes reaches it (the outbox keeps
      // it). DB_UNAVAILABLE passes (another tab still holds the file, no window leads yet): look again.
      this.startupError = res.error;
      if (res.error.code === 'DB_UNAVAILABLE') this.#retryStatusSoon();
    }
    if (!res.ok) await this.refreshOutbox();
  }

  async refreshOutbox(): Promise<void> {
    this.outboxCount = await this.outbox.count();
    this.outboxRefused = await this.outbox.refused();
  }

  /** A refused write, sent again with its op id (the person's "retry"). */
  async retryWrite(opId: string): Promise<RetryOutcome> {
    const outcome = await this.outbox.retry(opId);
    await this.refreshOutbox();
    return outcome;
  }

  async discardWrite(opId: string): Promise<void> {
    await this.outbox.discard(opId);
    await this.refreshOutbox();
  }

  #retryStatusSoon(ms = STATUS_RETRY_MS): void {
    if (this.#statusRetry) return;
    this.#statusRetry = setTimeout(() => {
      this.#statusRetry = null;
      void this.#refreshStatus();
    }, ms);
  }

  /**
   * After the first real save, ask the browser to keep our storage (ARCHITECTURE §3; main thread only).
   * Asking earlier would prompt people who have not saved anything yet.
   */
  #askPersistence(): void {
    if (this.#askedPersist || this.status?.storage !== 'opfs') return;
    this.#askedPersist = true;
    void navigator.storage?.persisted?.().then((already) => (already ? true : navigator.storage.persist())).catch(() => false);
  }

  #onHostEvent(event: HostEvent): void {
    switch (event.type) {
      case 'role':
        this.host = event.info;
        // Leading anew, this worker opened an engine of its own, which knows no endpoint (memory only, never in SQLite).
        this.#modelSync?.role(event.info.role);
        if (event.info.role === 'leader' || this.status === null) void this.#refreshStatus();
        break;
      case 'change':
        this.revision++;
        for (const l of this.#changeListeners) l(event);
        // Only a person's save counts; the app's own bookkeeping (job records, sweeps) never prompts.
        if (isUserWrite(event.method)) this.#askPersistence();
        break;
      case 'startup-failed':
      case 'waiting':
        this.startupError = event.error;
        break;
    }
  }
}

export const connection = new Connection();
