import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.svelte';
import { renderHtml, textOf } from '../settings/test-render';
import { MemoriesState } from './memories-state.svelte';
import MemoryView from './memory-view.svelte';
import { ProfileState } from './profile-state.svelte';
import { RulesState } from './rules-state.svelte';
import { LearningState } from './learning-state.svelte';
import type { StateDeps } from './state-deps';
import type { MemoryTab } from './tabs';

afterEach(() => i18n.setLocale('en'));

/** A render needs no engine: nothing is called while rendering. */
const deps: StateDeps = {
  engine: () => {
    throw new Error('a render must not call the engine');
  },
  onError: () => {},
};

function view(tab: MemoryTab) {
  const props = {
    tab,
    memories: new MemoriesState(deps),
    profile: new ProfileState(deps),
    rules: new RulesState(deps),
    learning: new LearningState(deps, () => ({ scope: 'global' })),
    onTab: () => {},
    onOpen: () => {},
  };
  return renderHtml(MemoryView, props);
}

describe('memory page tabs', () => {
  it('is a labelled tablist with one tab stop on the selected tab', () => {
    const html = view('profile');
    expect(html).toMatch(/<div class="tabs" role="tablist" aria-label="Memory sections">/);
    const tabs = [...html.matchAll(/<button[^>]*role="tab"[^>]*>/g)].map((m) => m[0]);
    expect(tabs).toHaveLength(3);
    for (const name of ['memories', 'profile', 'preferences']) {
      const tab = tabs.find((b) => b.includes(`data-testid="memory-tab-${name}"`))!;
      expect(tab).toContain(`aria-controls="memory-panel-${name}"`);
      expect(tab).toContain(`aria-selected="${name === 'profile'}"`);
      expect(tab).toContain(`tabindex="${name === 'profile' ? 0 : -1}"`);
      expect(html).toContain(`id="memory-panel-${name}" aria-labelledby="memory-tab-${name}"`);
    }
  });

  it.each([
    { tab: 'memories' as const, shows: 'data-testid="memory-search"', hides: 'data-testid="profile-text"' },
    { tab: 'profile' as const, shows: 'data-testid="profile-text"', hides: 'data-testid="memory-search"' },
    { tab: 'preferences' as const, shows: 'id="rules-scope"', hides: 'data-testid="profile-text"' },
  ])('shows only the $tab panel', ({ tab, shows, hides }) => {
    const html = view(tab);
    expect(html).toContain(shows);
    expect(html).not.toContain(hides);
    expect(html.match(/role="tabpanel"[^>]*hidden/g)).toHaveLength(2);
  });

  it.each(['memories', 'profile', 'preferences'] as const)('reads in Chinese with no untranslated key (%s)', (tab) => {
    i18n.setLocale('zh-CN');
    const text = textOf(view(tab));
    expect(text).toContain('记忆');
    expect(text).toContain('用户画像');
    expect(text).toContain('写作偏好');
    expect(text).not.toMatch(/memory:|common:|\{\{/);
  });

  it('labels every control of the Memories tab', () => {
    const html = view('memories');
    const ids = [...html.matchAll(/<(?:input|select|textarea)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids).toEqual(
      expect.arrayContaining(['memory-search', 'memory-filter-category', 'memory-filter-source', 'memory-filter-scope', 'memory-filter-status', 'memory-retrieve-query']),
    );
    for (const id of ids) expect(html, id).toContain(`for="${id}"`);
    for (const testid of ['memory-add', 'memory-clear', 'memory-total']) expect(html).toContain(`data-testid="${testid}"`);
  });
});
