import type { GenerationTrace, TraceReference } from '../context/types';
import type { EngineEnv } from '../env';

interface TraceRow {
  run_id: string;
  refs: string;
  verdict: GenerationTrace['verdict'];
  verdict_at: number | null;
}

/** 003 generation traces; one per run (the generation id is the run id). */
export function createTraceRepo({ driver, clock }: Pick<EngineEnv, 'driver' | 'clock'>) {
  return {
    insert(runId: string, refs: readonly TraceReference[]): void {
      driver.run('INSERT INTO generation_traces (run_id, refs) VALUES (?, ?)', [runId, JSON.stringify(refs)]);
    },
    find(runId: string): GenerationTrace | undefined {
      const row = driver.get<TraceRow>('SELECT * FROM generation_traces WHERE run_id = ?', [runId]);
      if (!row) return undefined;
      return { generationId: row.run_id, memoryReferences: JSON.parse(row.refs) as TraceReference[], verdict: row.verdict, verdictAt: row.verdict_at };
    },
    setVerdict(runId: string, verdict: 'correct' | 'incorrect'): void {
      driver.run('UPDATE generation_traces SET verdict = ?, verdict_at = ? WHERE run_id = ?', [verdict, clock.now(), runId]);
    },
  };
}

export type TraceRepo = ReturnType<typeof createTraceRepo>;
