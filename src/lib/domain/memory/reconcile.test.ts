import { describe, expect, it } from 'vitest';
import type { MemoryCandidate, MemoryRecord } from './types';
import { extractCandidates } from './extract-rules';
import { candidatesFromModel } from './memory-update';
import { reconcile } from './reconcile';

const T0 = Date.UTC(2026, 0, 17, 10, 30);

/** Stores a candidate the way the engine would (what reconcile sees later as "nearest"). */
function stored(c: MemoryCandidate, over: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id: over.id ?? `m-${c.key}`,
    scope: 'global',
    projectId: null,
    sessionId: 's-1',
    messageId: 1,
    category: c.category,
    key: c.key,
    value: c.value,
    content: c.content,
    tags: c.tags,
    confidence: c.confidence,
    source: c.source,
    importance: 0.5,
    status: 'active',
    supersededBy: null,
    language: c.language,
    createdAt: T0,
    updatedAt: T0,
    lastAccessed: null,
    accessCount: 0,
    version: 1,
    ...over,
  };
}

/** The one candidate a sentence yields for `key`. */
function said(text: string, key: string): MemoryCandidate {
  const found = extractCandidates(text).find((c) => c.key === key);
  if (!found) throw new Error(`no ${key} in test sentence`);
  return found;
}

function model(item: Record<string, unknown>, userText: string): MemoryCandidate {
  const [c] = candidatesFromModel({ should_store: true, ...item }, { userText, maxContentLength: 400 });
  if (!c) throw new Error('model item rejected');
  return c;
}

describe('reconcile (000 原子记忆异步写入：去重/冲突检测)', () => {
  const coffee = stored(said('我喜欢喝咖啡', 'preference.food.coffee'));

  it.each([
    ['the same sentence again', '我喜欢喝咖啡'],
    ['other words, same meaning', '我很喜欢咖啡'],
    ['the same in English', 'I like coffee'],
  ])('saying the same thing twice changes nothing: %s', (_label, text) => {
    expect(reconcile(said(text, 'preference.food.coffee'), [coffee])).toEqual({
      kind: 'noop',
      targetId: coffee.id,
      reason: 'duplicate',
    });
  });

  it('a changed preference supersedes the old one: 我喜欢喝咖啡 → 我现在不喜欢喝咖啡了，改喝茶', () => {
    const [noCoffee, tea] = extractCandidates('我现在不喜欢喝咖啡了，改喝茶');
    expect(reconcile(noCoffee!, [coffee])).toEqual({ kind: 'supersede', targetId: coffee.id });
    expect(reconcile(tea!, [coffee])).toEqual({ kind: 'add' });
  });

  it('a dislike stated without "anymore" still supersedes a like', () => {
    expect(reconcile(said('I hate coffee', 'preference.food.coffee'), [coffee])).toEqual({ kind: 'supersede', targetId: coffee.id });
  });

  it('a changed reply-style preference supersedes (简洁 → 详细)', () => {
    const concise = stored(said('以后请回答简洁一点', 'preference.reply.length'));
    const detailed = said('From now on, keep your answers detailed', 'preference.reply.length');
    expect(reconcile(detailed, [concise])).toEqual({ kind: 'supersede', targetId: concise.id });
  });

  it.each([
    ['call me Alex', { name: 'Alex' }],
    ['叫我小明', { name: '小明' }],
  ])('a changed fact is updated in place: "call me Sam" then "%s"', (text, value) => {
    const sam = stored(said('call me Sam', 'fact.name'));
    const alex = said(text, 'fact.name');
    expect(reconcile(alex, [sam])).toEqual({
      kind: 'update',
      targetId: sam.id,
      patch: { value, content: alex.content, confidence: alex.confidence, tags: alex.tags },
    });
  });

  it('a withdrawal deletes the fact it withdraws, and is ignored when nothing was stored', () => {
    const tencent = stored(said('我在腾讯工作', 'fact.employer'));
    const left = said('我已经不在腾讯工作了', 'fact.employer');
    expect(reconcile(left, [tencent])).toEqual({ kind: 'delete', targetId: tencent.id });
    expect(reconcile(left, [])).toEqual({ kind: 'ignore', reason: 'nothing-to-retract' });
  });

  it('a different object is a new memory', () => {
    expect(reconcile(said('I like tea', 'preference.food.tea'), [coffee])).toEqual({ kind: 'add' });
    expect(reconcile(said('我喜欢喝咖啡', 'preference.food.coffee'), [])).toEqual({ kind: 'add' });
  });

  it('an inference never overrides what the user said', () => {
    const sam = stored(said('My name is Sam', 'fact.name'));
    const guess = model({ category: 'fact', key: 'name', value: 'Bob', confidence: 0.6, source: 'inferred' }, 'Bob says hello');
    expect(reconcile(guess, [sam])).toEqual({ kind: 'noop', targetId: sam.id, reason: 'weaker' });
  });

  it('saying outright what was only inferred raises the confidence', () => {
    const inferred = stored(said('I like coffee', 'preference.food.coffee'), { source: 'inferred', confidence: 0.6 });
    expect(reconcile(said('I like coffee', 'preference.food.coffee'), [inferred])).toEqual({
      kind: 'update',
      targetId: inferred.id,
      patch: { confidence: 0.9 },
    });
  });

  it('superseded memories are history, not neighbours', () => {
    const old = { ...coffee, status: 'superseded' as const, supersededBy: 'm-2' };
    expect(reconcile(said('我喜欢喝咖啡', 'preference.food.coffee'), [old])).toEqual({ kind: 'add' });
  });

  it('model memories under other keys are found by their content', () => {
    const drink = stored(model({ category: 'preference', key: 'favorite_drink', value: 'coffee', content: 'Likes coffee in the morning', confidence: 0.9, source: 'user_stated' }, 'I like coffee in the morning'));
    const again = model({ category: 'preference', key: 'morning_drink', value: 'coffee', content: 'Likes coffee in the morning.', confidence: 0.9, source: 'user_stated' }, 'coffee in the morning, always');
    expect(reconcile(again, [drink])).toEqual({ kind: 'noop', targetId: drink.id, reason: 'duplicate' });
  });

  it('two schema keys from one sentence are different memories, though their content is the same', () => {
    const [name, job] = extractCandidates('我叫张伟，是一名程序员');
    expect(reconcile(job!, [stored(name!)])).toEqual({ kind: 'add' });
  });

  it('issue 15: what an older memory said as one of its clauses is not stored again, in either language', () => {
    // Stored before memories were split into one fact each, under a model's key.
    const compound = stored(said("I'm vegetarian", 'fact.diet'), { key: 'fact.diet_and_family', content: "I'm vegetarian and my sister is called Lena." });
    const sister = model({ category: 'fact', key: 'sister_name', value: 'Lena', content: 'My sister is called Lena', confidence: 0.9, source: 'user_stated' }, 'my sister is called Lena');
    expect(reconcile(sister, [compound])).toEqual({ kind: 'noop', targetId: compound.id, reason: 'duplicate' });
    const zh = stored(said('我吃素', 'fact.diet'), { key: 'fact.family', content: '我吃素，我妹妹叫莉娜。' });
    const [lena] = extractCandidates('我妹妹叫莉娜');
    expect(reconcile(lena!, [zh])).toEqual({ kind: 'noop', targetId: zh.id, reason: 'duplicate' });
  });

  it('issue 15: the same words are the same memory whatever category or free-form key a model gave them', () => {
    const [rules] = extractCandidates('Remember that my flight to Oslo is on Friday.');
    const asked = stored(rules!);
    const again = model({ category: 'pattern', key: 'travel', value: 'Oslo', content: 'My flight to Oslo is on Friday', confidence: 0.9, source: 'user_stated' }, 'my flight to Oslo is on Friday');
    expect(reconcile(again, [asked])).toEqual({ kind: 'noop', targetId: asked.id, reason: 'duplicate' });
    // Only clauses with words of their own count: "I like tea and coffee" does not hold "I like tea".
    const other = stored(said('I like jazz', 'preference.music.jazz'));
    expect(reconcile(said('I like tea', 'preference.food.tea'), [other])).toEqual({ kind: 'add' });
  });
});
