import { afterEach, describe, expect, it } from 'vitest';
import type { JobRun } from '../../../engine/protocol/types';
import { i18n } from '../../i18n/i18n.svelte';
import MaintenanceRun from './maintenance-run.svelte';
import { renderHtml, textOf } from './test-render';

const base: JobRun = { id: 1, job: 'maintenance', trigger: 'demand', status: 'ok', startedAt: Date.UTC(2024, 2, 5, 12), finishedAt: 0, result: {} };

afterEach(() => i18n.setLocale('en'));

describe('maintenance run', () => {
  it('shows each step’s result of a good run', () => {
    const run = { ...base, result: { optimizeMs: 12, ftsTables: 3, ftsMergeMs: 40, integrity: 'ok', integrityMs: 7 } };
    const text = textOf(renderHtml(MaintenanceRun, { run }));
    expect(text).toContain('By you');
    expect(text).toContain('OK');
    expect(text).toContain('Optimize: 12 ms');
    expect(text).toContain('Search index: 3 table(s), 40 ms');
    expect(text).toContain('Integrity: OK (7 ms)');
  });

  it('shows integrity problems of a failed run', () => {
    const run: JobRun = { ...base, trigger: 'idle', status: 'failed', result: { error: 'integrity check found 2 problem(s)' } };
    const html = renderHtml(MaintenanceRun, { run });
    expect(html).toContain('data-integrity="problems"');
    expect(textOf(html)).toContain('While idle');
    expect(textOf(html)).toContain('Failed');
  });

  it('speaks Chinese when the reader does', () => {
    i18n.setLocale('zh-CN');
    const run = { ...base, trigger: 'periodic' as const, result: { integrity: 'ok', integrityMs: 7 } };
    const text = textOf(renderHtml(MaintenanceRun, { run }));
    expect(text).toContain('定时');
    expect(text).toContain('完整性：正常（7 毫秒）');
  });
});
