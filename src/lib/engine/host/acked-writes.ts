import type { EngineRequest } from '../engine';

/**
 * A follower's memory of the writes another tab's leader acknowledged — kept so that a leader which acknowledged
 * them while it was already going away cannot lose them.
 *
 * Why: a tab being closed keeps running its DB worker for a moment after the browser has handed its Web Lock (and,
 * in a private window, its OPFS files) to the next tab. What it commits in that moment is acknowledged but may never
 * reach the file the next leader opens. The follower cannot tell those acknowledgements from good ones, so it keeps
 * every acknowledged write and, when a new leader announces itself, sends the ones acknowledged by anybody else to it
 * again. The op id (`applied_ops`, committed with the write) makes that exactly-once: a write that did reach the file
 * is skipped, one that did not is applied now — with the same ids, since the engine derives them from the op id.
 *
 *   ack from A ─▶ kept (A) ─▶ A still heard from RETAIN_MS later ─▶ dropped (A was fine then)
 *                        └──▶ leader B announces ─▶ re-sent to B ─▶ ack from B ─▶ kept (B) …
 *
 * A dying leader is heard from for at most a short while after it lost the file, so a write is dropped only once its
 * leader has been heard from RETAIN_MS after acknowledging it — never by the clock alone, which would drop the
 * writes of a leader that died while the next one was still waiting for the file.
 */
export const RETAIN_MS = 30_000;

interface Acked {
  req: EngineRequest;
  leader: string;
  at: number;
}

export interface AckedWrites {
  /** A write (with an op id) that `leader` acknowledged. */
  add(req: EngineRequest, leader: string): void;
  /** Something arrived from `leader`: it was alive then. */
  heard(leader: string): void;
  /** The writes acknowledged by any leader but `leader`, oldest first; they leave this list (re-sending re-adds them). */
  takeNotBy(leader: string): EngineRequest[];
  readonly size: number;
}

export function createAckedWrites(now: () => number = Date.now): AckedWrites {
  let kept: Acked[] = [];
  const lastHeard = new Map<string, number>();
  const prune = () => {
    kept = kept.filter((a) => (lastHeard.get(a.leader) ?? a.at) - a.at < RETAIN_MS);
  };
  return {
    add(req, leader) {
      if (!req.opId) return;
      const at = now();
      lastHeard.set(leader, at);
      kept.push({ req, leader, at });
      // Pruning walks the list; doing it once per 64 additions keeps an acknowledgement O(1) amortised.
      if (kept.length % 64 === 0) prune();
    },
    heard(leader) {
      lastHeard.set(leader, now());
    },
    takeNotBy(leader) {
      prune();
      const taken = kept.filter((a) => a.leader !== leader);
      kept = kept.filter((a) => a.leader === leader);
      return taken.map((a) => a.req);
    },
    get size() {
      return kept.length;
    },
  };
}
