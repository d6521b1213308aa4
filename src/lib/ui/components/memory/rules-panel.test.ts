import { afterEach, describe, expect, it } from 'vitest';
import { expectOk } from '../../../engine/testing';
import { i18n } from '../../i18n/i18n.svelte';
import { renderHtml, textOf } from '../settings/test-render';
import RulesPanel from './rules-panel.svelte';
import { RulesState } from './rules-state.svelte';
import { HISTORY_PAGE, LearningState } from './learning-state.svelte';
import { engineDeps } from './test-deps';

afterEach(() => i18n.setLocale('en'));

async function setup() {
  const t = await engineDeps();
  const r = new RulesState(t.deps);
  const l = new LearningState(t.deps, () => r.scope);
  await r.load();
  await l.load();
  return { ...t, r, l };
}

let current: LearningState | null = null;
const render = (r: RulesState, now: number, l: LearningState | null = current) => renderHtml(RulesPanel, { state: r, learning: l as LearningState, now });

describe('the learning history, a page at a time', () => {
  it('"more" is not lost to a load that comes while it reads (a change event), nor shrunk by a later load', async () => {
    const { l, engine } = await setup();
    for (let i = 0; i < HISTORY_PAGE + 10; i++) expectOk(await engine.call('rules.add', { rule: `rule number ${i}`, scope: 'global' }));
    await l.toggleHistory();
    expect(l.history).toHaveLength(HISTORY_PAGE);
    const total = l.historyTotal;
    expect(total).toBeGreaterThanOrEqual(HISTORY_PAGE + 10);
    await Promise.all([l.moreHistory(), l.load()]);
    expect(l.history).toHaveLength(Math.min(2 * HISTORY_PAGE, total));
    await l.load();
    expect(l.history).toHaveLength(Math.min(2 * HISTORY_PAGE, total));
  });
});

describe('the Preferences tab, rendered', () => {
  it('shows the seed 003 empty state with one way to add a rule', async () => {
    const { r, l, clock } = await setup();
    current = l;
    const html = render(r, clock.now());
    expect(html).toContain('data-testid="rules-empty"');
    expect(html).toContain('<svg');
    expect(html.match(/data-testid="rule-add"/g)).toHaveLength(1);
    expect(textOf(html)).toContain('The AI is learning your writing preferences; the more you use it the better it gets');
    expect(textOf(html)).toContain('0 interactions recorded · not updated yet');
    i18n.setLocale('zh-CN');
    expect(textOf(render(r, clock.now()))).toContain('AI 正在学习你的写作偏好，使用越多越精准');
  });

  it('groups rule cards by category with their confidence and badges', async () => {
    const { r, l, clock } = await setup();
    current = l;
    await r.add('No exclamation marks in dialogue', 'style');
    await r.add('Short chapters', 'pacing');
    await r.add('Plain words', 'style');
    const html = render(r, clock.now());
    expect(html.match(/data-testid="rule-card"/g)).toHaveLength(3);
    expect([...html.matchAll(/<h3 id="rules-group-([a-z]+)">([^<]+)<\/h3>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['style', 'Writing style'],
      ['pacing', 'Pacing'],
    ]);
    const text = textOf(html);
    expect(text).toContain('Confidence 100%');
    expect(text).toContain('Confirmed');
    expect(text).toMatch(/0 interactions recorded · last updated/);
    // Confirmed rules offer no Confirm; global rules offer no Promote.
    expect(html).not.toContain('data-testid="rule-confirm"');
    expect(html).not.toContain('data-testid="rule-promote"');
    expect(html.match(/data-testid="rule-edit"/g)).toHaveLength(3);
    expect(html.match(/data-testid="rule-delete"/g)).toHaveLength(3);
    expect(html).not.toContain('data-testid="rules-empty"');
  });

  it('marks an edited rule, "recently updated" after a time drift for 30 days, and offers Promote in a project', async () => {
    const { r, l, engine, clock, driver } = await setup();
    current = l;
    const project = expectOk(await engine.call('project.create', { name: 'Sci-fi short' }));
    await r.setScope({ scope: 'project', projectId: project.id });
    await r.add('Third person omniscient', 'structure');
    clock.advance(86_400_000);
    await r.update(r.rules[0]!.id, 'Third person, omniscient narrator', 'structure');
    expect(render(r, clock.now())).not.toContain('data-badge="recent"');
    // A time drift (003 时间迁移) is what "recently updated" marks: learning changed the rule on its own.
    driver.run('UPDATE semantic_rules SET drifted_at = ? WHERE id = ?', [clock.now(), r.rules[0]!.id]);
    await r.load();
    const html = render(r, clock.now());
    expect(html).toContain('data-badge="edited"');
    expect(html).toContain('data-badge="recent"');
    expect(html).toContain('data-testid="rule-promote"');
    expect(html).toContain(`<option value="project:${project.id}" selected="">Project: Sci-fi short</option>`);
    expect(render(r, clock.now() + 31 * 86_400_000)).not.toContain('data-badge="recent"');
    void l;
  });

  it('labels the scope switch and reads in Chinese', async () => {
    const { r, l, clock } = await setup();
    current = l;
    await r.add('Short chapters', 'pacing');
    i18n.setLocale('zh-CN');
    const html = render(r, clock.now());
    expect(html).toContain('<label for="rules-scope">范围</label>');
    const text = textOf(html);
    for (const word of ['写作偏好', '全局', '节奏', '置信度 100%', '已确认', '修改', '删除', '已积累 0 条交互记录', '更新偏好', '暂停学习', '查看学习历史']) expect(text).toContain(word);
    expect(text).not.toMatch(/memory:|common:|\{\{/);
  });
});
