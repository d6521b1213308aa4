/**
 * When each stage of opening the database finished in this worker (issue 16: what the first recall waits for),
 * as absolute times (performance.timeOrigin + now), so the page can set them against its own navigation start.
 *
 *   worker-start ─▶ wasm (sqlite3 compiled + instantiated) ─▶ pool (OPFS sahpool) ─▶ open ─▶ engine (migrations
 *   checked, services built) ─▶ the first call answered
 */
export type StartupStage = 'worker-start' | 'wasm' | 'pool' | 'open' | 'engine' | 'first-call';

const marks: Partial<Record<StartupStage, number>> = {};

export function markStartup(stage: StartupStage): void {
  marks[stage] ??= performance.timeOrigin + performance.now();
}

export function startupMarks(): Partial<Record<StartupStage, number>> {
  return { ...marks };
}
