import { describe, expect, it } from 'vitest';
import SettingInput from './setting-input.svelte';
import { settingField } from './settings-fields';
import { renderHtml, textOf } from './test-render';

describe('setting input', () => {
  it('shows a bounded number with its range, default and error', () => {
    const html = renderHtml(SettingInput, {
      field: settingField('memory.rag_top_n'),
      label: 'Memories per reply',
      help: 'How many memories are retrieved.',
      error: { kind: 'tooBig' },
      value: 51,
    });
    expect(html).toMatch(/<input[^>]*type="number"[^>]*min="0"[^>]*max="50"/);
    expect(html).toContain('aria-invalid="true"');
    expect(textOf(html)).toContain('From 0 to 50; default 5.');
    expect(textOf(html)).toContain('Must be at most 50.');
  });

  it('shows eviction switched off as an unchecked box and a disabled number', () => {
    const html = renderHtml(SettingInput, {
      field: settingField('MEMORY_EVICTION_THRESHOLD'),
      label: 'Eviction threshold',
      help: 'h',
      error: undefined,
      value: null,
    });
    expect(html).toMatch(/<input type="checkbox"(?![^>]*checked)[^>]*data-testid="setting-MEMORY_EVICTION_THRESHOLD-enabled"/);
    expect(html).toMatch(/<input[^>]*type="number"[^>]*disabled/);
    expect(textOf(html)).toContain('10 or more; default off.');
  });

  it('shows a boolean as a labelled checkbox', () => {
    const html = renderHtml(SettingInput, {
      field: settingField('memory.enable_user_profile'),
      label: 'Use my profile',
      help: 'h',
      error: undefined,
      value: true,
    });
    expect(html).toMatch(/<label class="check"><input type="checkbox" checked/);
    expect(textOf(html)).toContain('Use my profile');
  });
});
