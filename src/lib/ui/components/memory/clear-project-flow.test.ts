import { afterEach, describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../../engine/testing';
import type { ConfirmRequest } from '../../app/confirm.svelte';
import { i18n } from '../../i18n/i18n.svelte';
import { clearProjectConfirmed } from './clear-project-flow';

afterEach(() => i18n.setLocale('en'));

async function setup() {
  const t = await createTestEngine();
  const project = expectOk(await t.engine.call('project.create', { name: '实验小说' }));
  expectOk(await t.engine.call('rules.add', { rule: '对白要口语化', scope: 'project', projectId: project.id }));
  const rules = async () => expectOk(await t.engine.call('rules.list', { scope: 'project', projectId: project.id })).filter((r) => r.scope === 'project');
  const asked: ConfirmRequest[] = [];
  const notes: string[] = [];
  const run = (answer: boolean) =>
    clearProjectConfirmed({
      project: { id: project.id, name: project.name },
      ask: async (req) => (asked.push(req), answer),
      clear: async (projectId) => {
        const res = await t.engine.call('memory.clearProject', { projectId, confirm: true });
        return res.ok ? res.data : null;
      },
      notify: (text) => notes.push(text),
    });
  return { rules, asked, notes, run };
}

describe('clearing a project’s memory asks through the app’s one confirmation dialog (issue 15)', () => {
  it('cancelled: nothing is cleared and nothing is announced', async () => {
    const s = await setup();
    expect(await s.run(false)).toBe(false);
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toMatchObject({ title: 'Clear the memory of “实验小说”?', confirmLabel: 'Clear project memory', tone: 'danger' });
    expect(await s.rules()).toHaveLength(1);
    expect(s.notes).toEqual([]);
  });

  it('confirmed: the project’s rules are gone and the notice names the project (zh-CN)', async () => {
    i18n.setLocale('zh-CN');
    const s = await setup();
    expect(await s.run(true)).toBe(true);
    expect(await s.rules()).toEqual([]);
    expect(s.notes).toEqual(['已清除项目“实验小说”的记忆']);
  });
});
