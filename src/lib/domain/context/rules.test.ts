import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { isRequested, parseContextRules, ruleFieldFor } from './rules';

/** Text a user might have typed; it must never reach an error message. */
const SECRET = '她在日记里写下了秘密';

function rejection(raw: unknown): EngineError {
  try {
    parseContextRules(raw);
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected parseContextRules to throw');
}

describe('004 注入规则不可解析/非法', () => {
  it.each([
    { name: 'unknown field', raw: { surrounding: 10, secretField: SECRET }, path: 'context_rules', mentions: '`secretField`' },
    { name: 'wrong type', raw: { surrounding: SECRET }, path: 'context_rules.surrounding', mentions: 'expected number' },
    { name: 'negative surrounding', raw: { surrounding: -5 }, path: 'context_rules.surrounding', mentions: 'at least 0' },
    { name: 'non-integer surrounding', raw: { surrounding: 2.5 }, path: 'context_rules.surrounding', mentions: 'int' },
    { name: 'surrounding above the maximum', raw: { surrounding: 1_000_000 }, path: 'context_rules.surrounding', mentions: 'at most' },
    { name: 'unparsable JSON string', raw: `{"surrounding": 10, "note": "${SECRET}"`, path: 'context_rules', mentions: 'not valid JSON' },
    { name: 'nested unknown field', raw: { memories: { topN: 3, [SECRET.slice(0, 2)]: SECRET } }, path: 'context_rules.memories', mentions: 'unknown field' },
    { name: 'a Chinese key', raw: { surrounding: 10, [SECRET]: true }, path: 'context_rules', mentions: 'an unknown field' },
    { name: 'a very long key', raw: { ['reallyLongFieldNameThatGoesOnAndOnForever'.repeat(2)]: 1 }, path: 'context_rules', mentions: 'an unknown field' },
    { name: 'a key with spaces', raw: { 'my secret note': 1, also: 2 }, path: 'context_rules', mentions: 'unknown fields `also` and 1 more' },
    { name: 'nested wrong type', raw: { history: { turns: SECRET } }, path: 'context_rules.history.turns', mentions: 'expected number' },
    { name: 'bad name inside the character list', raw: { characters: ['Alice', 5] }, path: 'context_rules.characters[1]', mentions: 'expected string' },
    { name: 'nested topN out of range', raw: { memories: { topN: 500 } }, path: 'context_rules.memories.topN', mentions: 'at most 50' },
    { name: 'union of the wrong kind', raw: { characters: 3 }, path: 'context_rules.characters', mentions: 'list of character names' },
    { name: 'empty character list', raw: { characters: [] }, path: 'context_rules.characters', mentions: 'at least 1' },
    { name: 'not an object', raw: [SECRET], path: 'context_rules', mentions: 'expected object' },
    { name: 'JSON string of a non-object', raw: JSON.stringify(SECRET), path: 'context_rules', mentions: 'expected object' },
    { name: 'null', raw: null, path: 'context_rules', mentions: 'expected object' },
  ])('$name → INVALID_ARGUMENT naming `$path`, no user text', ({ raw, path, mentions }) => {
    const error = rejection(raw);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(`\`${path}\``);
    expect(error.message).toContain(mentions);
    expect(error.message).not.toContain(SECRET);
    expect(JSON.stringify(error.details)).not.toContain(SECRET);
    // No key longer than 32 characters or outside identifier characters reaches the message.
    for (const quoted of error.message.match(/`[^`]*`/gu) ?? []) expect(quoted.slice(1, -1)).toMatch(/^[\w$.[\]-]{1,64}$/u);
    expect(error.message).not.toContain('ForeverreallyLong');
    expect(error.message).not.toContain('my secret note');
    expect(error.message).not.toContain(SECRET.slice(0, 2));
  });
});

describe('004 SKILL 的 context_rules 声明式上下文注入', () => {
  it.each([
    { name: 'undefined: the skill declares nothing', raw: undefined, want: {} },
    { name: 'an object', raw: { surrounding: 500 }, want: { surrounding: 500 } },
    { name: 'a JSON string', raw: '{"surrounding":500,"characters":true}', want: { surrounding: 500, characters: true } },
    { name: 'character names are trimmed', raw: { characters: [' Alice ', '林黛玉'] }, want: { characters: ['Alice', '林黛玉'] } },
    { name: 'nested objects', raw: { memories: { topN: 3 }, history: { turns: 4, summaries: false } }, want: { memories: { topN: 3 }, history: { turns: 4, summaries: false } } },
    { name: 'every flag', raw: { 'project-settings': true, style: true, memories: true, history: true }, want: { 'project-settings': true, style: true, memories: true, history: true } },
  ])('accepts $name', ({ raw, want }) => {
    expect(parseContextRules(raw)).toEqual(want);
  });

  it.each([
    { rules: {}, field: 'characters', want: false },
    { rules: { characters: false }, field: 'characters', want: false },
    { rules: { characters: ['Alice'] }, field: 'characters', want: true },
    { rules: { memories: true }, field: 'episodes', want: true },
    { rules: { memories: { episodes: false } }, field: 'episodes', want: false },
    { rules: { memories: { topN: 2 } }, field: 'episodes', want: true },
    { rules: { history: { turns: 0 } }, field: 'turns', want: false },
    { rules: { history: { turns: 0 } }, field: 'summaries', want: true },
    { rules: { surrounding: 0 }, field: 'surrounding', want: true },
    { rules: {}, field: 'surrounding', want: false },
  ] as const)('isRequested($rules, $field) = $want', ({ rules, field, want }) => {
    expect(isRequested(parseContextRules(rules), field)).toBe(want);
  });

  it.each([
    { kind: 'character', path: undefined, want: 'characters' },
    { kind: 'file', path: '.engram/characters/bob.md', want: 'characters' },
    { kind: 'file', path: '.engram/style/guide.md', want: 'style' },
    { kind: 'file', path: '.engram/world/map.md', want: 'project-settings' },
    { kind: 'compact', path: undefined, want: 'summaries' },
    { kind: 'selection', path: undefined, want: null },
    { kind: 'message', path: undefined, want: null },
  ])('an item of kind $kind ($path) is governed by $want', ({ kind, path, want }) => {
    expect(ruleFieldFor(kind, path)).toBe(want);
  });
});
