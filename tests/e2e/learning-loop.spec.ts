/**
 * Seed 003, the whole learning loop as a person lives it, in Chinese, against the scripted
 * OpenAI-compatible server: write a chapter, run skills, choose between versions, accept, rewrite
 * heavily, reject, undo; "更新偏好" in the memory panel distills (the model phrases the rule); the rule
 * shows with the interactions it came from and its history — and is in the next skill run's inspector.
 */
import { expect, test, type Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi, type RecordedRequest, type ScriptedReply } from '../fixtures/fake-openai-server';
import { call, configureModel, newProjectWithChapter, select, waitForEngine } from './helpers';

const FIGHTS = [
  '他一拳砸向对方的脸。对方侧身闪开，反手拔出短刀。刀锋划过他的手臂，血溅了出来。',
  '她冲出巷口。身后的脚步越来越近！她翻过铁栅栏，狂奔。子弹击中墙面，碎石乱飞。',
  '两人在屋顶上交手。剑光一闪，他挡住了这一击，随即一脚踢中对方的膝盖。',
  '刀砍了下来。他就地一滚，抓住对方的手腕，用力一拧。短刀落地。',
  '敌人扑了上来。他挥剑格挡，剑刃相撞，火星四溅。他退了两步，又冲了上去。',
];
const SHORT = '他拔刀。刀光一闪。对方倒下。他收刀入鞘。';
const LONG = '他在漫长而寂静的夜色里缓缓举起那把早已卷了刃的长刀，用尽全身仅剩的力气朝着对方的肩膀劈了下去，而对方只是轻轻一侧身便躲开了这一击。';
const RULE = '打斗场面用短句，节奏紧凑 · short sentences in fights, a fast pace';

/**
 * Skill runs get their scripted versions in order; distillation (a JSON request) gets its phrasing:
 * the sentence-length pattern as RULE, anything else as "模型：<key>".
 */
function script(versions: string[]): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    const body = req.body as { response_format?: { type?: string }; messages?: { content: string }[] };
    if (body.response_format?.type === 'json_object') {
      const keys = [...(body.messages?.[1]?.content ?? '').matchAll(/- key: (\S+)/g)].map((m) => m[1] as string);
      return { json: { rules: keys.map((k) => ({ basedOn: [k], rule: k.endsWith('sentence-length') ? RULE : `模型：${k}`, category: 'pacing' })) } };
    }
    return { text: versions.shift() ?? SHORT };
  };
}

async function continueOn(page: Page, fight: string): Promise<void> {
  await select(page, fight);
  await page.getByTestId('skill-continue').click();
  await expect(page.getByTestId('skill-output')).toBeVisible();
}

test.describe('seed 003 learning loop (Chinese, scripted model)', () => {
  let server: FakeOpenAi;
  test.beforeEach(async ({ page }) => {
    // Versions in the order the runs below ask for them.
    server = await startFakeOpenAi({ replies: script([SHORT, LONG, LONG, LONG, LONG, SHORT, SHORT, SHORT, SHORT]) });
    await page.addInitScript(() => localStorage.setItem('engram.locale', 'zh-CN'));
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('write, choose, accept, rewrite, reject, undo → update preferences → the learned rule, its episodes and history → in the next run', async ({ page }) => {
    test.setTimeout(180_000);
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await newProjectWithChapter(page, FIGHTS.join('\n\n'), '长夜');

    // 1. Two versions: the short one is chosen over the long one.
    await continueOn(page, FIGHTS[0] as string);
    await expect(page.getByTestId('skill-output')).toHaveValue(SHORT);
    await page.getByTestId('skill-another').click();
    await expect(page.getByTestId('skill-version')).toHaveCount(2);
    await expect(page.getByTestId('skill-output')).toHaveValue(LONG);
    await page.getByTestId('skill-version').first().click();
    await expect(page.getByTestId('skill-output')).toHaveValue(SHORT);
    await page.getByTestId('skill-comment').fill('短一点更有力');
    await page.getByTestId('skill-accept').click();
    await expect(page.getByTestId('feedback-signal')).toHaveAttribute('data-signal', 'strong-positive');

    // 2. A long version, rewritten heavily into short sentences (a large rewrite: weak negative).
    await continueOn(page, FIGHTS[1] as string);
    await page.getByTestId('skill-output').fill('她翻墙。落地。狂奔。');
    await page.getByTestId('skill-accept').click();
    await expect(page.getByTestId('feedback-signal')).toHaveAttribute('data-signal', 'weak-negative');

    // 3. A long version, rejected.
    await continueOn(page, FIGHTS[2] as string);
    await page.getByTestId('skill-reject').click();
    await expect(page.getByTestId('feedback-signal')).toHaveAttribute('data-signal', 'strong-negative');

    // 4. A long version, accepted — and undone: the original comes back (delayed negative).
    await continueOn(page, FIGHTS[3] as string);
    await page.getByTestId('skill-accept').click();
    await expect(page.getByTestId('editor')).toHaveValue(new RegExp(LONG));
    await page.getByTestId('skill-undo').click();
    await expect(page.getByTestId('editor')).not.toHaveValue(new RegExp(LONG));
    await expect(page.getByTestId('feedback-signal')).toHaveAttribute('data-signal', 'delayed-negative');

    // 5–7. Short versions, accepted as they are.
    for (const fight of [FIGHTS[4], FIGHTS[0], FIGHTS[2]] as string[]) {
      await continueOn(page, fight);
      await expect(page.getByTestId('skill-output')).toHaveValue(SHORT);
      await page.getByTestId('skill-accept').click();
      await expect(page.getByTestId('skill-undo-notice')).toBeVisible();
    }
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved', { timeout: 10_000 });

    // Leaving the Write page (through the menu) ends the chapter's session: its working memory archives the
    // repeated use of "continue" on fight scenes as one more episode. The panel: 8 interactions, nothing learned yet.
    await page.getByRole('navigation').getByRole('link', { name: '记忆' }).click();
    await page.getByTestId('memory-tab-preferences').click();
    const scope = page.getByTestId('rules-scope');
    await scope.selectOption({ label: '项目：长夜' });
    await expect(page.getByTestId('rules-footer')).toHaveAttribute('data-episodes', '8');
    const kinds = await call<{ items: { kind: string }[] }>(page, 'episode.list', { limit: 20 });
    expect(kinds.items.filter((e) => e.kind === 'session')).toHaveLength(1);
    await expect(page.getByTestId('rules-empty')).toBeVisible();
    await page.getByTestId('learning-update').click();
    const card = page.getByTestId('rule-card').filter({ hasText: RULE });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card).toContainText('学习所得');
    // The model phrased it: the distillation asked the scripted server with a JSON request.
    expect(server.requests.some((r) => (r.body as { response_format?: unknown }).response_format !== undefined)).toBe(true);

    // Its history: learned, when, from which interactions.
    await page.getByTestId('learning-history-toggle').click();
    const entry = page.getByTestId('history-entry').filter({ hasText: RULE }).first();
    await expect(entry).toHaveAttribute('data-action', 'created');
    await expect(entry).toContainText('学到');
    await entry.getByTestId('history-episodes').click();
    await expect(entry.getByTestId('episode-item')).not.toHaveCount(0);
    await expect(entry.getByTestId('episode-item').filter({ hasText: '短一点更有力' })).toHaveCount(1);
    await expect(entry.locator('[data-testid="episode-item"][data-signal="delayed-negative"]')).toHaveCount(1);

    // The next skill run carries the rule in its settings layer; the inspector shows it, and the writing memory.
    await page.goto('/write');
    await waitForEngine(page);
    await continueOn(page, FIGHTS[1] as string);
    await page.getByTestId('skill-why').first().click();
    await expect(page.getByTestId('run-header')).toBeVisible();
    await expect(page.locator('[data-testid="layer-card"][data-layer="L2"]')).toContainText(RULE);
    await expect(page.getByTestId('writing-memory')).toBeVisible();
    await expect(page.getByTestId('writing-memory-scene')).toHaveAttribute('data-scene', 'action');
    await expect(page.getByTestId('recalled-episode')).not.toHaveCount(0);
    await expect(page.getByTestId('trace-panel')).toContainText('情景记忆');
  });
});
