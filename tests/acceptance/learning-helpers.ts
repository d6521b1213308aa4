/** Fixtures for the seed-003 learning scenarios: chapters, skill runs on passages, their recorded outcomes. */
import type { ContextBuildResult } from '../../src/lib/engine/context/types';
import type { Input } from '../../src/lib/engine/protocol/contract';
import { expectOk, type TestEngine } from '../../src/lib/engine/testing';

/** Fight passages (动作), each a few clipped sentences. */
export const FIGHTS = [
  '他一拳砸向对方的脸。对方侧身闪开，反手拔出短刀。刀锋划过他的手臂，血溅了出来。',
  '她冲出巷口。身后的脚步越来越近！她翻过铁栅栏，狂奔。子弹击中墙面，碎石乱飞。',
  '两人在屋顶上交手。剑光一闪，他挡住了这一击，随即一脚踢中对方的膝盖。',
  '刀砍了下来。他就地一滚，抓住对方的手腕，用力一拧。短刀落地。',
  '敌人扑了上来。他挥剑格挡，剑刃相撞，火星四溅。他退了两步，又冲了上去。',
];

/** Dialogue passages (对白). */
export const DIALOGUES = [
  '“你到底去哪儿了？”母亲问道。\n“就在图书馆。”他低声说。\n“图书馆十点就关门了。”',
  '「明天还来吗？」\n「看情况吧。」她笑道，「如果你请我喝茶的话。」',
  '“你为什么不早说？”她问。\n“我以为你知道。”他回答。\n“我怎么会知道？”',
  '“这条路对吗？”\n“对，”老人说，“一直往前走，过了桥就到了。”',
];

/** Short, clipped sentences (mean ~11 characters) and long ones (mean ~40). */
export const SHORT_TAKES = [
  '他挥刀砍向对方的左肩。对方侧身避开了刀锋。他反手又是一刀。',
  '她一把推开了铁门。门外站着三个黑衣人。她拔出了腰间的枪。',
  '剑光在夜色里一闪。他后退一步稳住身形。对方已经冲到面前。',
];
export const LONG_TAKES = [
  '他在漫长而寂静的夜色里缓缓举起那只早已疲惫不堪的手臂，朝着对方的脸用尽全身的力气挥出了沉重的一拳，而对方只是轻轻一侧身便躲开了这一击。',
  '她在那扇锈迹斑斑的铁门前犹豫了很久，终于伸手把它推开，却发现门外的阴影里静静地站着三个穿着黑衣、面无表情的陌生男人，正一动不动地看着她。',
  '剑光在浓得化不开的夜色里一闪而过，他本能地向后退了一步，想要稳住自己摇摇欲坠的身形，可对方早已借着这一瞬间的空隙冲到了他的面前。',
];

export async function chapter(t: TestEngine, opts: { project?: string; title?: string; content?: string } = {}) {
  const project = expectOk(await t.engine.call('project.create', { name: opts.project ?? '长夜' }));
  const doc = expectOk(await t.engine.call('document.create', { projectId: project.id, title: opts.title ?? '第七章', content: opts.content ?? FIGHTS.join('\n\n') }));
  return { project, doc };
}

/**
 * A completed skill run on `passage` inside the chapter (the chapter's text is `before + passage + after`,
 * as the Write page sends it). The model's reply is not needed: the run is completed as if shown.
 */
export async function skillRun(
  t: TestEngine,
  opts: { documentId: string; passage: string; skillId?: string; message?: string; typed?: boolean; before?: string },
): Promise<ContextBuildResult> {
  const input: Input<'context.build'> = {
    kind: 'skill',
    skillId: opts.skillId ?? 'continue',
    documentId: opts.documentId,
    message: opts.message ?? '续写',
    typed: opts.typed ?? false,
    selection: { before: opts.before ?? '', text: opts.passage, after: '' },
    locale: 'zh-CN',
  };
  const r = expectOk(await t.engine.call('context.build', input));
  expectOk(await t.engine.call('run.complete', { runId: r.runId, status: 'completed' }));
  return r;
}

/** A skill run on `passage` and what the user did with its candidates. */
export async function episodeOn(
  t: TestEngine,
  opts: { documentId: string; passage: string; skillId?: string; candidates: string[]; selectedIndex: number; finalText?: string; explicit?: string; typed?: string },
) {
  const run = await skillRun(t, { documentId: opts.documentId, passage: opts.passage, skillId: opts.skillId, ...(opts.typed ? { message: opts.typed, typed: true } : {}) });
  const res = expectOk(
    await t.engine.call('episode.record', {
      runId: run.runId,
      candidates: opts.candidates,
      selectedIndex: opts.selectedIndex,
      ...(opts.finalText === undefined ? {} : { finalText: opts.finalText }),
      ...(opts.explicit === undefined ? {} : { explicit: opts.explicit }),
    }),
  );
  return { run, ...res };
}

export const l = (r: ContextBuildResult, id: string) => r.layers.find((x) => x.id === id) as ContextBuildResult['layers'][number];
export const sent = (r: ContextBuildResult) => r.messages.map((m) => m.content).join('\n');
