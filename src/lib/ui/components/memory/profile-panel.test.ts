import { afterEach, describe, expect, it } from 'vitest';
import { expectOk } from '../../../engine/testing';
import { i18n } from '../../i18n/i18n.svelte';
import { renderHtml, textOf } from '../settings/test-render';
import ProfilePanel from './profile-panel.svelte';
import { ProfileState } from './profile-state.svelte';
import { engineDeps } from './test-deps';

afterEach(() => i18n.setLocale('en'));

async function seeded() {
  const t = await engineDeps();
  const p = new ProfileState(t.deps);
  await p.load();
  p.draft = 'Name: Lin <script>';
  await p.save();
  return { ...t, p };
}

const render = (p: ProfileState) => renderHtml(ProfilePanel, { state: p });

describe('the Profile tab, rendered', () => {
  it('shows the document in a labelled textarea, its version and whether replies use it', async () => {
    const { p } = await seeded();
    const html = render(p);
    expect(html).toMatch(/<label for="profile-text">Profile<\/label>/);
    expect(html).toMatch(/<textarea id="profile-text"[^>]*data-testid="profile-text"[^>]*>Name: Lin &lt;script><\/textarea>/);
    expect(html).toContain('data-enabled="true"');
    expect(html).toContain('href="/settings#setting-memory-enable-user-profile"');
    expect(textOf(html)).toContain('The profile is loaded into every reply.');
    expect(textOf(html)).toMatch(/Version 1, saved .+ by You/);
    expect(html).toMatch(/<button type="submit"[^>]*disabled[^>]*data-testid="profile-save"/);
  });

  it('says when the profile is not used, with the way to the setting', async () => {
    const { p, engine } = await seeded();
    expectOk(await engine.call('settings.update', { patch: { 'memory.enable_user_profile': false } }));
    await p.load();
    const html = render(p);
    expect(html).toContain('data-enabled="false"');
    expect(textOf(html)).toContain('turned off in the settings');
  });

  it('lists the versions with their authors', async () => {
    const { p, engine } = await seeded();
    await p.undo();
    expectOk(await engine.call('profile.update', { content: 'Learned: likes tea' }));
    await p.load();
    const history = render(p).split('data-testid="profile-history"')[1]!;
    expect(history.match(/data-testid="profile-version-entry"/g)).toHaveLength(3);
    const text = textOf(history);
    expect(text).toContain('Version 2 You (undo) brings back version 0');
    expect(text).toContain('Version 1 You (edited)');
  });

  it('shows the stored text next to the edit after a conflict, and blocks undo while editing', async () => {
    const { p, engine } = await seeded();
    p.draft = 'Name: Lin Wei';
    expectOk(await engine.call('profile.update', { content: 'Name: Lin\nCity: Hangzhou' }));
    await p.save();
    const html = render(p);
    expect(html).toContain('data-testid="profile-conflict"');
    expect(textOf(html)).toContain('Name: Lin City: Hangzhou');
    expect(html).toMatch(/<button type="button"[^>]*disabled[^>]*data-testid="profile-undo"/);
    expect(html).toContain('data-testid="profile-keep-mine"');
  });

  it('reads in Chinese', async () => {
    const { p } = await seeded();
    i18n.setLocale('zh-CN');
    const text = textOf(render(p));
    for (const word of ['你的用户画像', '用户画像会加载到每次回复中。', '保存画像', '撤销上一次修改', '版本 1']) expect(text).toContain(word);
    expect(text).not.toMatch(/memory:|common:|\{\{/);
  });
});
