import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler } from '../../../engine/jobs/scheduler';
import { maintenanceJob } from '../../../engine/jobs/maintenance-job';
import type { JobDefinition, JobProgress } from '../../../engine/jobs/types';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { i18n, tDynamic } from '../../i18n/i18n.svelte';
import { jobStepKey, summarizeMaintenance } from './maintenance-result';

afterEach(() => i18n.setLocale('en'));

const broken: JobDefinition = {
  name: 'broken',
  async run() {
    throw new Error('boom');
  },
};

/** "Run now" as the settings page does it: the scheduler runs the job against a real engine and records it. */
async function runNow(name: string) {
  const { engine, clock } = await createTestEngine();
  const steps: JobProgress[] = [];
  const scheduler = createScheduler({ jobs: [maintenanceJob, broken], engine, clock, onProgress: (p) => steps.push(p) });
  const outcome = await scheduler.run(name, 'demand');
  return { engine, steps, outcome };
}

describe('maintenance, as the settings page shows it', () => {
  it('records a run whose result fields the page can read', async () => {
    const { engine, outcome } = await runNow('maintenance');
    expect(outcome.state).toBe('done');
    const [last] = expectOk(await engine.call('jobs.history', { job: 'maintenance', limit: 6 }));
    const summary = summarizeMaintenance(last!);
    expect(last!.trigger).toBe('demand');
    expect(summary.integrity).toBe('ok');
    expect(summary.optimizeMs).not.toBeNull();
    expect(summary.ftsMergeMs).not.toBeNull();
    expect(summary.error).toBeNull();
  });

  it.each(['maintenance', 'broken'])('has words in both languages for every step %s reports', async (name) => {
    const { steps } = await runNow(name);
    expect(steps.length).toBeGreaterThan(1);
    for (const { step } of steps) {
      const key = jobStepKey(step);
      i18n.setLocale('en');
      const en = tDynamic(key);
      i18n.setLocale('zh-CN');
      const zh = tDynamic(key);
      expect(en, step).not.toBe(key);
      expect(zh, step).not.toBe(key);
      expect(zh, step).not.toBe(en);
    }
  });
});
