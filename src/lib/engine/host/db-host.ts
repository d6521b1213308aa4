import { fail, type IpcError, type IpcResponse } from '../../domain/errors';
import { EngineError } from '../../domain/errors';
import type { Engine, EngineRequest } from '../engine';
import { createAckedWrites } from './acked-writes';
import type { SessionChangeSet } from '../store/session-changes';
import type { Method } from '../protocol/contract';
import { CHANNEL_NAME, LOCK_NAME, type HostEvent, type HostInfo, type HostRole, type RelayMessage } from './messages';

/**
 * One per tab, inside its DB worker. Exactly one host in the origin leads: it holds the Web Lock, opens
 * the database and answers everyone. The others relay their calls over a BroadcastChannel. When a new
 * leader announces itself, a follower sends it again whatever is unanswered *and* the writes the old
 * leader acknowledged (acked-writes.ts: a closing tab can acknowledge writes after it has lost the file).
 * Writes carry op ids, so a call a leader already applied is not applied twice.
 *
 *   tab A worker (leader) ◀──BroadcastChannel──▶ tab B worker (follower)
 *        │ holds lock 'engram-db-leader', owns SQLite on OPFS
 *
 * A leader that hears another announce itself has lost the lock (its tab is going away): it stops answering.
 */
export interface DbHostOptions {
  /**
   * Opens the database and builds the engine; only the leader calls it. It may take long (another tab
   * still holds the file): `waiting()` then tells the page why nothing answers yet.
   */
  openEngine: (hooks: { waiting: () => void }) => Promise<Engine>;
  /**
   * A tab of its own (a `?guest` session on an in-memory database): it neither leads nor follows the
   * tabs that share the database on OPFS — no one else's writes may land in its memory, nor its in theirs.
   */
  isolated?: boolean;
  /** How long a follower waits for any leader before answering DB_UNAVAILABLE. */
  relayTimeoutMs?: number;
  locks?: LockManager;
  channel?: BroadcastChannel;
  tabId?: string;
}

export interface DbHost {
  call(req: EngineRequest): Promise<IpcResponse<unknown>>;
  subscribe(listener: (event: HostEvent) => void): () => void;
  info(): HostInfo;
  /** Lets go of the database and the lock (tests; a real tab just dies). */
  close(): void;
}

interface Pending {
  req: EngineRequest;
  resolve: (res: IpcResponse<unknown>) => void;
  /** A caller's call gives up after relayTimeoutMs; a re-sent acknowledged write waits for whichever leader comes. */
  timer?: ReturnType<typeof setTimeout>;
  attempts: number;
}

/**
 * A leader whose tab is closing can be cut off in the middle of a call and still post the resulting
 * failure. A write's failure of this kind (INTERNAL, DB_UNAVAILABLE) is therefore sent again (up to 3 times) after
 * a short, growing pause — to the same leader if it is fine, or to the next one. The op id makes that safe.
 */
const RESEND_CODES = new Set(['INTERNAL', 'DB_UNAVAILABLE']);
const RESEND_DELAY_MS = 300;
const MAX_ATTEMPTS = 4;

const RECENT_LIMIT = 500;

const DB_BUSY_MESSAGE =
  'Another Engram window (or one that is closing) still holds the database. Engram keeps trying; what you write meanwhile is kept on this device.';

/** The lock and channel a host uses: the origin's shared ones, or (isolated) names no other tab knows. */
export function hostNames(opts: { tabId: string; isolated: boolean }): { lockName: string; channelName: string } {
  return opts.isolated
    ? { lockName: `${LOCK_NAME}:isolated:${opts.tabId}`, channelName: `${CHANNEL_NAME}:isolated:${opts.tabId}` }
    : { lockName: LOCK_NAME, channelName: CHANNEL_NAME };
}

function changeEvent(c: { method: Method; at: number; sessions?: SessionChangeSet }): HostEvent {
  return c.sessions ? { type: 'change', method: c.method, at: c.at, sessions: c.sessions } : { type: 'change', method: c.method, at: c.at };
}

export function createDbHost(opts: DbHostOptions): DbHost {
  const tabId = opts.tabId ?? crypto.randomUUID();
  const { lockName, channelName } = hostNames({ tabId, isolated: opts.isolated ?? false });
  const channel = opts.channel ?? new BroadcastChannel(channelName);
  const locks = opts.locks ?? navigator.locks;
  const relayTimeoutMs = opts.relayTimeoutMs ?? 30_000;
  const listeners = new Set<(e: HostEvent) => void>();
  const pending = new Map<string, Pending>();
  // Leader side: calls in flight or recently answered, keyed by `${from}:${id}`, so a re-sent call
  // is answered once rather than run twice.
  const inflight = new Map<string, Promise<IpcResponse<unknown>>>();
  // The leader this host heeds (itself when it leads; null until it hears one) and, as a follower, the writes
  // other leaders acknowledged.
  let leader: { id: string; epoch: number } | null = null;
  const acked = createAckedWrites();
  let role: HostRole = 'starting';
  let engine: Engine | null = null;
  let startupError: IpcError | null = null;
  /** While the leader waits for the file: told to every subscriber, late ones too. */
  let waitingFor: HostEvent | null = null;
  let releaseLock: (() => void) | null = null;
  let closed = false;

  const emit = (event: HostEvent) => {
    for (const l of listeners) l(event);
  };
  const info = (): HostInfo => ({ tabId, role, storage: engine?.env.storage.kind ?? null });
  const setRole = (next: HostRole) => {
    role = next;
    emit({ type: 'role', info: info() });
  };

  async function local(req: EngineRequest): Promise<IpcResponse<unknown>> {
    if (engine) return engine.handle(req);
    return { ok: false, error: startupError ?? { code: 'DB_UNAVAILABLE', message: 'The database is not open.' } };
  }

  function answerOnce(key: string, req: EngineRequest): Promise<IpcResponse<unknown>> {
    let p = inflight.get(key);
    if (!p) {
      p = local(req);
      // Only answers are remembered; a failure may be retried and must then run again.
      void p.then((res) => {
        if (!res.ok) inflight.delete(key);
      });
      inflight.set(key, p);
      if (inflight.size > RECENT_LIMIT) inflight.delete(inflight.keys().next().value as string);
    }
    return p;
  }

  function send(msg: RelayMessage): void {
    if (!closed) channel.postMessage(msg);
  }

  function relay(id: string, req: EngineRequest): Promise<IpcResponse<unknown>> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve(fail('DB_UNAVAILABLE', 'No Engram window could open the database in time. Reload to try again.', { reason: 'no-leader' }));
      }, relayTimeoutMs);
      pending.set(id, { req, resolve, timer, attempts: 1 });
      send({ t: 'req', from: tabId, id, req });
    });
  }

  /**
   * `answeredBy` acknowledged `id`: a write it acknowledged is kept until that leader is known to have been fine
   * (acked-writes.ts). The local leader's own answers need no keeping: it holds the file.
   */
  function settle(id: string, res: IpcResponse<unknown>, answeredBy: string = tabId): void {
    const p = pending.get(id);
    if (!p) return;
    if (res.ok && answeredBy !== tabId) acked.add(p.req, answeredBy);
    if (!res.ok && p.req.opId && RESEND_CODES.has(res.error.code) && p.attempts < MAX_ATTEMPTS) {
      p.attempts++;
      setTimeout(() => {
        if (!pending.has(id)) return;
        if (role === 'leader') void answerOnce(`${tabId}:${id}:${p.attempts}`, p.req).then((r) => settle(id, r));
        else send({ t: 'req', from: tabId, id: `${id}`, req: p.req });
      }, RESEND_DELAY_MS * 2 ** (p.attempts - 2));
      return;
    }
    clearTimeout(p.timer);
    pending.delete(id);
    p.resolve(res);
  }

  channel.onmessage = (ev: MessageEvent<RelayMessage>) => {
    const msg = ev.data;
    switch (msg.t) {
      case 'req':
        if (role === 'leader') {
          // Another tab's call: if this leader dies before answering, that tab re-sends it to the next one.
          const { epoch } = leader as { epoch: number };
          void answerOnce(`${msg.from}:${msg.id}`, { ...msg.req, keepResult: true }).then((res) => send({ t: 'res', from: tabId, epoch, to: msg.from, id: msg.id, res }));
        }
        break;
      case 'res':
        if (heed(msg.from, msg.epoch, false) && msg.to === tabId) settle(msg.id, msg.res, msg.from);
        break;
      case 'leader':
        heed(msg.tabId, msg.epoch, true);
        break;
      case 'change':
        if (heed(msg.from, msg.epoch, false)) emit(changeEvent(msg));
        break;
    }
  };

  /**
   * Whether a message from leader `from` (epoch `epoch`) is to be heeded. A higher epoch is a new leader: a leader
   * steps down for it (it lost the lock: its tab is closing), a follower follows it. A lower one is a leader that
   * was replaced and still talks: ignored. `announced`: the new leader said so itself (re-send what is unanswered).
   */
  function heed(from: string, epoch: number, announced: boolean): boolean {
    if (leader && from === leader.id && epoch === leader.epoch) {
      if (role !== 'leader') acked.heard(from);
      return role !== 'leader';
    }
    if (leader && epoch <= leader.epoch) return false;
    if (role === 'leader') stepDown();
    follow(from, epoch, announced || leader !== null);
    return true;
  }

  /**
   * A leader this host had not heard before: the writes other leaders acknowledged go to it first, oldest first,
   * then (if it may not have seen them) the unanswered calls. Re-sent acknowledged writes have no caller waiting.
   */
  function follow(id: string, epoch: number, resend: boolean): void {
    if (role === 'starting') setRole('follower');
    leader = { id, epoch };
    acked.heard(id);
    const unanswered = [...pending];
    for (const req of acked.takeNotBy(id)) {
      const replayId = `replay:${crypto.randomUUID()}`;
      pending.set(replayId, { req, resolve: () => {}, attempts: 1 });
      send({ t: 'req', from: tabId, id: replayId, req });
    }
    if (resend) for (const [pid, p] of unanswered) send({ t: 'req', from: tabId, id: pid, req: p.req });
  }

  /** Another tab leads: this one lost the lock (its tab is closing) and must not answer for the file any more. */
  function stepDown(): void {
    engine?.close();
    engine = null;
    startupError = { code: 'DB_UNAVAILABLE', message: 'Another Engram window now holds the database.' };
    releaseLock?.();
    releaseLock = null;
    setRole('follower');
    requestLock();
  }

  async function lead(): Promise<void> {
    try {
      const opened = await opts.openEngine({
        waiting: () => {
          waitingFor = { type: 'waiting', error: { code: 'DB_UNAVAILABLE', message: DB_BUSY_MESSAGE, details: { reason: 'busy' } } };
          emit(waitingFor);
        },
      });
      engine = opened;
      waitingFor = null;
      announceChanges(opened);
    } catch (err) {
      startupError =
        err instanceof EngineError
          ? { code: err.code, message: err.message }
          : { code: 'DB_UNAVAILABLE', message: 'The database could not be opened. Reload to try again.' };
      emit({ type: 'startup-failed', error: startupError });
    }
    // A later leader's epoch is higher than any this tab has heard (time, or one more when clocks disagree).
    leader = { id: tabId, epoch: Math.max(Date.now(), (leader?.epoch ?? 0) + 1) };
    setRole('leader');
    // First the writes other leaders acknowledged (applied here unless they reached the file), oldest first, then
    // our own unanswered calls, under the same keys a re-send would use. Writes run synchronously, so in this order.
    if (engine) for (const req of acked.takeNotBy(tabId)) void answerOnce(`${tabId}:replay:${crypto.randomUUID()}`, req);
    for (const [id, p] of [...pending]) void answerOnce(`${tabId}:${id}`, p.req).then((res) => settle(id, res));
    send({ t: 'leader', tabId, epoch: leader.epoch });
  }

  /**
   * Every view re-queries on a change, so only a write that changed a row is announced: a background
   * sweep that found nothing (it carries no op id, so it writes no idempotency row either) stays quiet.
   * SQLite's running count of changed rows is compared at each write's end; a row changed in between by
   * a call that is not a write (context.build stores its pending run) only makes the next write be
   * announced even if it changed nothing — one extra re-query, never a missed change.
   */
  function announceChanges(opened: Engine): void {
    // Less the rows the engine's upkeep changed between calls (FTS5 merge pieces): nothing a view shows.
    const changeCount = () => (opened.env.driver.get<{ n: number }>('SELECT total_changes() AS n')?.n ?? -1) - opened.upkeepChanges();
    let seen = changeCount();
    opened.onChange((c) => {
      const now = changeCount();
      if (now === seen) return;
      seen = now;
      emit(changeEvent(c));
      if (leader?.id === tabId) send({ t: 'change', from: tabId, epoch: leader.epoch, method: c.method, at: c.at, ...(c.sessions ? { sessions: c.sessions } : {}) });
    });
  }

  // Wait for the lock; hold it for as long as this worker lives (or until another tab is heard leading).
  function requestLock(): void {
    void locks
      .request(lockName, { mode: 'exclusive' }, async () => {
        if (closed) return;
        await lead();
        await new Promise<void>((resolve) => {
          releaseLock = resolve;
        });
      })
      .catch(() => {
        /* the worker is going away */
      });
  }
  requestLock();
  // Until a leader answers, assume one exists elsewhere; the lock callback corrects this.
  queueMicrotask(() => {
    if (role === 'starting') setRole('follower');
  });

  return {
    call(req) {
      if (closed) return Promise.resolve(fail('DB_UNAVAILABLE', 'This window has closed its database connection.'));
      const id = crypto.randomUUID();
      if (role === 'leader') return answerOnce(`${tabId}:${id}`, req);
      return relay(id, req);
    },
    subscribe(listener) {
      listeners.add(listener);
      listener({ type: 'role', info: info() });
      if (waitingFor) listener(waitingFor);
      return () => listeners.delete(listener);
    },
    info,
    close() {
      closed = true;
      engine?.close();
      engine = null;
      channel.close();
      releaseLock?.();
    },
  };
}
