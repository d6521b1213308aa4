import * as Comlink from 'comlink';
import type { IpcError } from '../../domain/errors';
import { createCaller, type EngineCaller } from '../../engine/client/caller';
import type { HostEvent, HostInfo } from '../../engine/host/messages';

export type ChangeEvent = Extract<HostEvent, { type: 'change' }>;
import type { DbWorkerApi } from '../../engine/host/worker-api';
import type { JobsWorkerApi } from '../../engine/jobs/worker-api';
import type { JobProgress } from '../../engine/jobs/types';
import { isUserWrite } from '../../engine/protocol/contract';
import type { SystemStatus } from '../../engine/protocol/types';
import { localDb } from '../local/local-db';
import { createOutbox, type Outbox, type RefusedWrite, type RetryOutcome } from '../local/outbox';

const STATUS_RETRY_MS = 2000;

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

  start(opts: { persistent: boolean }): void {
    if (this.#started) return;
    this.#started = true;
    const dbWorker = new Worker(new URL('../../../../workers/db.worker.ts', import.meta.url), { type: 'module', name: 'engram-db' });
    const db = Comlink.wrap<DbWorkerApi>(dbWorker);
    const jobsWorker = new Worker(new URL('../../../../workers/jobs.worker.ts', import.meta.url), { type: 'module', name: 'engram-jobs' });
    const jobs = Comlink.wrap<JobsWorkerApi>(jobsWorker);
    this.#jobs = jobs;
    this.#caller = createCaller({ call: (req) => db.call(req) });
    this.#outbox = createOutbox(localDb(), this.#caller);

    void db.subscribe(Comlink.proxy((event: HostEvent) => this.#onHostEvent(event)));
    void db.start(opts);
    const channel = new MessageChannel();
    void db.connectJobs(Comlink.transfer(channel.port1, [channel.port1]));
    void jobs.start(
      Comlink.transfer(channel.port2, [channel.port2]),
      Comlink.proxy((p: JobProgress) => {
        this.jobs = { ...this.jobs, [p.job]: p };
      }),
    );
    // A dying tab lets go of the database lock at once, so another tab can take over.
    window.addEventListener('pagehide', (e: PageTransitionEvent) => {
      if (!e.persisted) dbWorker.terminate();
    });
    for (const type of ['keydown', 'pointerdown'] as const) {
      addEventListener(type, () => void jobs.activity(), { passive: true });
    }
    void this.#refreshStatus();
  }

  async #refreshStatus(): Promise<void> {
    const res = await this.engine.call('system.status', {});
    if (res.ok) {
      this.status = res.data;
      this.startupError = null;
      await this.outbox.drain();
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

  #retryStatusSoon(): void {
    if (this.#statusRetry) return;
    this.#statusRetry = setTimeout(() => {
      this.#statusRetry = null;
      void this.#refreshStatus();
    }, STATUS_RETRY_MS);
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
