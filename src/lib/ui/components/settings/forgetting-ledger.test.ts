import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../engine/lifecycle/types';
import { failedPhase } from '../../app/cleanup-notice';
import { i18n } from '../../i18n/i18n.svelte';
import ForgettingLedger from './forgetting-ledger.svelte';
import { cleanupFailure } from './maintenance-forgetting';
import { renderHtml, textOf } from './test-render';

const at = Date.UTC(2026, 0, 17, 10);
const entry = (over: Partial<LedgerEntry>): LedgerEntry => ({
  id: 1, itemType: 'episode', itemId: 'e1', projectId: null, action: 'faded', reason: 'decay', decay: 0.002, text: 'action · continue · weak-positive', createdAt: at, keptAt: null, exists: true, ...over,
});

afterEach(() => i18n.setLocale('en'));

describe('forgetting ledger', () => {
  it('lists what was forgotten with when and why, offers "keep this" only for what still exists, and shows what was kept', () => {
    const entries = [
      entry({ id: 3, action: 'deleted', reason: 'lru', exists: false, itemId: 'gone' }),
      entry({ id: 2, itemType: 'rule', action: 'faded', text: '偏好华丽辞藻', keptAt: at + 1000 }),
      entry({ id: 1, action: 'compressed', reason: 'ttl' }),
    ];
    const html = renderHtml(ForgettingLedger, { entries, total: 5, onKeep: () => {} });
    const text = textOf(html);
    expect(text).toContain('Deleted · least recently used at the limit · writing episode');
    expect(text).toContain('Faded · not used for a long time · learned rule');
    expect(text).toContain('Compressed · past its age limit');
    expect(text).toContain('偏好华丽辞藻');
    expect(html.match(/class="keep"/g)).toHaveLength(1);
    expect(html).toContain('data-kept="true"');
    expect(text).toContain('2 older entries');
  });

  it('says when nothing was forgotten, in Chinese too', () => {
    i18n.setLocale('zh-CN');
    expect(textOf(renderHtml(ForgettingLedger, { entries: [], total: 0, onKeep: () => {} }))).toContain('还没有遗忘任何内容。');
  });

  it('a phase that failed and has not succeeded since is the failure Settings shows; the notice names the phase', () => {
    const ok = { lastOkAt: at, failedAt: null, error: null };
    expect(cleanupFailure({ phases: { decay: ok, compress: ok, purge: ok } })).toBeNull();
    expect(cleanupFailure({ phases: { decay: ok, compress: { lastOkAt: null, failedAt: at, error: 'SQLITE_BUSY' }, purge: ok } })).toEqual({ phase: 'compress', message: 'SQLITE_BUSY' });
    expect(failedPhase('MEMORY_CLEANUP_FAILED: The memory clean-up (purge) failed and will be retried')).toBe('purge');
    expect(failedPhase(undefined)).toBeNull();
  });
});
