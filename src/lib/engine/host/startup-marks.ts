/**
 * When each stage of opening the database finished in this worker (issue 16: what the first recall waits for),
 * as absolute times (performance.timeOrigin + now), so the page can set them against its own navigation start.
 *
 *   worker-start ─▶ wasm (sqlite3 compiled + instantiated) ─▶ pool (OPFS sahpool) ─▶ open ─▶ engine (migrations
 *   checked, services built) ─▶ the first call answered
 */
export type StartupStage = 'worker-start' | 'wasm' | 'pool' | 'open' | 'engine' | 'first-call';

const marks: Partial<Record<StartupStage, number>> = {};

/** Each mark is also a `performance.mark` (`engram:<stage>`), so a Chrome trace of the worker shows where the stages fell
 *  among its tasks (bench/speed/cold-ab.ts --trace); six entries per worker, made once. */
export function markStartup(stage: StartupStage): void {
  if (marks[stage] !== undefined) return;
  marks[stage] = performance.timeOrigin + (typeof performance.mark === 'function' ? performance.mark(`engram:${stage}`).startTime : performance.now());
}

export function startupMarks(): Partial<Record<StartupStage, number>> {
  return { ...marks };
}
