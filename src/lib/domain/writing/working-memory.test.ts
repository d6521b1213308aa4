import { describe, expect, it } from 'vitest';
import { defaultTokenCounter } from '../text/tokens';
import {
  chapterContext,
  importance,
  noteSignal,
  putEntry,
  renderWritingMemory,
  setFocus,
  signalsToArchive,
  startWritingMemory,
  totalTokens,
  WRITING_MEMORY_BUDGET,
} from './working-memory';

const counter = defaultTokenCounter;
const MIN = 60_000;

describe('003 writing working memory', () => {
  it('holds the task (pinned), the chapter, intents and outputs, and renders them for L5', () => {
    let wm = startWritingMemory({ documentId: 'd', projectId: 'p', now: 0 });
    wm = putEntry(wm, { id: 'task', kind: 'task', text: '续写：打斗场景', pinned: true }, { counter, now: 1 });
    wm = putEntry(wm, { id: 'intent:1', kind: 'intent', text: '写得紧凑一点', pinned: false }, { counter, now: 2 });
    wm = putEntry(wm, { id: 'chapter', kind: 'chapter', text: '《第七章》 ¶3/3', pinned: false }, { counter, now: 3 });
    const text = renderWritingMemory(wm);
    expect(text.split('\n')).toEqual([
      '- 任务 · task: 续写：打斗场景',
      '- 章节 · chapter: 《第七章》 ¶3/3',
      '- 本次会话意图 · intent: 写得紧凑一点',
    ]);
    expect(totalTokens(wm)).toBe(wm.entries.reduce((n, e) => n + counter.count(e.text), 0));
  });

  it('is counted with the real tokenizer and never exceeds its 8K budget', () => {
    let wm = startWritingMemory({ documentId: 'd', projectId: null, now: 0 });
    for (let i = 0; i < 40; i++) wm = putEntry(wm, { id: `o${i}`, kind: 'output', text: `第${i}段输出。`.repeat(120) }, { counter, now: i * MIN });
    expect(wm.budget).toBe(8192);
    expect(totalTokens(wm)).toBeLessThanOrEqual(WRITING_MEMORY_BUDGET);
    expect(wm.evicted.length).toBeGreaterThan(0);
  });

  it('over budget, evicts by importance: an old intent unrelated to the focus goes first', () => {
    let wm = startWritingMemory({ documentId: 'd', projectId: null, now: 0, budget: 600 });
    wm = setFocus(wm, { text: '他挥刀砍向敌人，敌人侧身躲开', sceneType: 'action' });
    wm = putEntry(wm, { id: 'intent:old-unrelated', kind: 'intent', text: '把天气描写得更细腻，加一些雨和雾的意象。'.repeat(6) }, { counter, now: 0 });
    wm = putEntry(wm, { id: 'intent:old-related', kind: 'intent', text: '打斗时敌人躲开的动作要写清楚，刀的轨迹也要写。'.repeat(6) }, { counter, now: 0 });
    wm = putEntry(wm, { id: 'task', kind: 'task', text: '续写打斗', pinned: true }, { counter, now: 20 * MIN });
    const before = wm.entries.map((e) => e.id);
    expect(before).toContain('intent:old-unrelated');
    wm = putEntry(wm, { id: 'chapter', kind: 'chapter', text: '敌人挥刀。他躲开。'.repeat(40) }, { counter, now: 21 * MIN });
    expect(wm.evicted[0]?.id).toBe('intent:old-unrelated');
    expect(wm.entries.map((e) => e.id)).toContain('task');
    expect(totalTokens(wm)).toBeLessThanOrEqual(600);
    const focus = new Set(['敌人', '躲开']);
    const related = wm.entries.find((e) => e.id === 'intent:old-related');
    if (related) expect(importance(related, focus, 21 * MIN)).toBeGreaterThan(0);
  });

  it('archives only signals that reached their threshold', () => {
    let wm = startWritingMemory({ documentId: 'd', projectId: null, now: 0 });
    for (let i = 0; i < 3; i++) wm = noteSignal(wm, { kind: 'scene-skill', sceneType: 'action', skillId: 'continue', text: null }, i);
    wm = noteSignal(wm, { kind: 'scene-skill', sceneType: 'dialogue', skillId: 'polish', text: null }, 4);
    wm = noteSignal(wm, { kind: 'instruction', sceneType: 'action', skillId: 'continue', text: '更紧凑' }, 5);
    wm = noteSignal(wm, { kind: 'instruction', sceneType: 'action', skillId: 'continue', text: '更紧凑' }, 6);
    expect(signalsToArchive(wm).map((s) => `${s.kind}:${s.sceneType}:${s.uses}`)).toEqual(['scene-skill:action:3', 'instruction:action:2']);
  });

  it('the chapter context is the title, the place and the first sentence of each earlier paragraph', () => {
    const content = '雨停了。街上没有人。\n\n他推开门。屋里很暗。\n\n刀光一闪。';
    expect(chapterContext({ title: '第七章', content, focusOffset: content.indexOf('刀光') })).toBe('《第七章》 ¶3/3 / 雨停了。 / 他推开门。');
  });
});
