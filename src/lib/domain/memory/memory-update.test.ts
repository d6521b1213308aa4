import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractCandidates } from './extract-rules';
import { candidatesFromModel, memoryUpdateSchema, parseModelMemoryUpdates, readModelMemoryUpdates } from './memory-update';
import { reconcile } from './reconcile';
import { normaliseModelKey } from './keys';

const coffee = {
  should_store: true,
  category: 'preference',
  key: 'preference.food.coffee',
  value: { object: '咖啡', stance: 'like' },
  confidence: 0.8,
  source: 'user_stated',
  content: '我喜欢喝咖啡',
};
const opts = { userText: '我喜欢喝咖啡', maxContentLength: 400 };

describe('candidatesFromModel (001 Create long-term memory from user statement)', () => {
  it('stores a user statement as user_stated with confidence 0.9 or higher', () => {
    const [c] = candidatesFromModel(coffee, opts);
    expect(c).toMatchObject({ key: 'preference.food.coffee', source: 'user_stated', confidence: 0.9, language: 'zh', content: '我喜欢喝咖啡' });
    expect(candidatesFromModel({ ...coffee, confidence: 0.97 }, opts)[0]?.confidence).toBe(0.97);
  });

  it('drops should_store=false', () => {
    expect(candidatesFromModel({ should_store: false }, opts)).toEqual([]);
    expect(candidatesFromModel({ memory_updates: [{ should_store: false, reason: 'small talk' }, coffee] }, opts)).toHaveLength(1);
  });

  it.each([
    ['one item', coffee],
    ['{ memory_update }', { memory_update: coffee }],
    ['{ memory_updates: [...] }', { memory_updates: [coffee] }],
    ['an array', [coffee]],
    ['JSON text', JSON.stringify(coffee)],
    ['JSON in a code fence after prose', `Sure! Here is the update:\n\`\`\`json\n${JSON.stringify({ memory_update: coffee })}\n\`\`\``],
    ['JSON after prose', `Result: ${JSON.stringify([coffee])} — done.`],
  ])('accepts %s', (_label, answer) => {
    expect(candidatesFromModel(answer, opts).map((c) => c.key)).toEqual(['preference.food.coffee']);
  });

  it('is strict about types and reports the field, not the value; other items survive', () => {
    const answer = { memory_updates: [{ ...coffee, confidence: '0.9' }, { ...coffee, category: 'secret-category' }, coffee] };
    const report = parseModelMemoryUpdates(answer);
    expect(report.invalid).toEqual([
      { index: 0, fields: ['confidence'], reason: 'schema' },
      { index: 1, fields: ['category'], reason: 'schema' },
    ]);
    expect(JSON.stringify(report.invalid)).not.toContain('secret');
    expect(report.items).toHaveLength(1);
    expect(candidatesFromModel(answer, opts)).toHaveLength(1);
  });

  it('ignores extra fields the model adds', () => {
    const [c] = candidatesFromModel({ ...coffee, reason: 'user said so', emotion: 'happy' }, opts);
    expect(c && Object.keys(c)).not.toContain('reason');
  });

  it('returns nothing when there is no JSON at all', () => {
    expect(parseModelMemoryUpdates('I could not find anything worth remembering.')).toEqual({ items: [], indexes: [], invalid: [], parsed: false });
    expect(candidatesFromModel('no json here', opts)).toEqual([]);
  });

  it('cuts content to maxContentLength', () => {
    const [c] = candidatesFromModel({ ...coffee, content: '我喜欢喝咖啡，'.repeat(50) }, { ...opts, maxContentLength: 20 });
    expect(Array.from(c!.content)).toHaveLength(20);
  });

  it('never records the assistant’s or the system prompt’s words as facts about the user, whatever the source', () => {
    const userText = 'What is the weather in Paris tomorrow?';
    const fromReply = { ...coffee, key: 'pets', value: 'cats', content: 'User loves cats', confidence: 0.95 };
    const fromPrompt = { ...coffee, key: 'reply.length', value: 'concise', content: 'The system prompt says the user prefers concise answers', source: 'inferred' };
    const res = readModelMemoryUpdates({ memory_updates: [fromReply, { ...fromReply, source: 'inferred' }, fromPrompt] }, { userText, maxContentLength: 400 });
    expect(res.candidates).toEqual([]);
    expect(res.rejected).toEqual([
      { index: 0, fields: ['value'], reason: 'ungrounded' },
      { index: 1, fields: ['value'], reason: 'ungrounded' },
      { index: 2, fields: ['value'], reason: 'ungrounded' },
    ]);
  });

  it('refuses source "system" from the model', () => {
    const res = readModelMemoryUpdates({ ...coffee, source: 'system' }, opts);
    expect(res).toMatchObject({ candidates: [], rejected: [{ index: 0, fields: ['source'], reason: 'schema' }] });
  });

  it('keeps an inference the user’s words support, below user-stated confidence', () => {
    const inferred = { ...coffee, category: 'fact', key: 'occupation', value: 'software developer', content: 'Writes Rust services at work', source: 'inferred', confidence: 0.85 };
    const res = readModelMemoryUpdates(inferred, { userText: 'I spent the day debugging our Rust services', maxContentLength: 400 });
    expect(res.candidates).toMatchObject([{ key: 'fact.occupation', source: 'inferred', confidence: 0.7 }]);
    expect(res.rejected).toEqual([]);
  });

  it('grounds a translated value through the lexicon', () => {
    const english = { ...coffee, value: { object: 'coffee', stance: 'like' }, content: 'Likes coffee' };
    expect(candidatesFromModel(english, opts)[0]?.source).toBe('user_stated');
  });

  it('maps model keys onto the key scheme, so model and rules agree', () => {
    const [name] = candidatesFromModel({ ...coffee, category: 'fact', key: 'user.name', value: 'Sam', content: 'call me Sam' }, { userText: 'call me Sam', maxContentLength: 400 });
    expect(name).toMatchObject({ key: 'fact.name', value: { name: 'Sam' } });
    expect(name?.profile).toEqual([{ section: 'background', key: 'fact.name', text: 'Name: Sam' }]);
    const [fromRules] = extractCandidates('call me Sam');
    const record = { ...fromRules!, id: 'm-1', scope: 'global' as const, projectId: null, sessionId: null, messageId: null, importance: 0.5, status: 'active' as const, supersededBy: null, language: 'en', createdAt: 0, updatedAt: 0, lastAccessed: null, accessCount: 0, version: 1 };
    expect(reconcile(name!, [record])).toEqual({ kind: 'noop', targetId: 'm-1', reason: 'duplicate' });
  });

  it('publishes a JSON schema for providers with structured output', () => {
    const schema = z.toJSONSchema(memoryUpdateSchema) as { anyOf?: unknown[] };
    expect(schema.anyOf).toHaveLength(4);
  });
});

describe('model keys', () => {
  it.each([
    ['name', 'fact', 'fact.name'],
    ['user.name', 'fact', 'fact.name'],
    ['User Name', 'fact', 'fact.name'],
    ['preference.reply_language', 'preference', 'preference.reply.language'],
    ['favorite_drink', 'preference', 'preference.favorite_drink'],
    ['user.favorite_drink', 'preference', 'preference.favorite_drink'],
    ['preference.food.coffee', 'preference', 'preference.food.coffee'],
    ['works_night_shifts', 'pattern', 'pattern.works_night_shifts'],
  ] as const)('%s (%s) → %s', (key, category, expected) => {
    expect(normaliseModelKey(key, category)).toBe(expected);
  });
});
