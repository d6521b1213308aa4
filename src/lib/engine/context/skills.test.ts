import { describe, expect, it } from 'vitest';
import { EngineError } from '../../domain/errors';
import { BUILT_IN_SKILLS, createSkillRegistry, loadSkill } from './skills';

function loadError(def: Parameters<typeof loadSkill>[0]): EngineError {
  try {
    loadSkill(def);
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('expected the skill to be refused');
}

describe('skills', () => {
  it('the built-ins load, and their rules are what the 004 matrix promises', () => {
    const registry = createSkillRegistry();
    expect(registry.list().map((s) => s.id)).toEqual(['chat', 'continue', 'polish', 'summarize', 'consistency-check']);
    expect(registry.get('chat').rules).toBeUndefined();
    expect(registry.get('polish').rules).toEqual({ surrounding: 500, style: true });
    expect(registry.get('continue').rules).toMatchObject({ surrounding: 1500, characters: true, 'project-settings': true, style: true, memories: { topN: 5 } });
    expect(registry.get('summarize').rules).toEqual({ surrounding: 0, history: false });
    expect(registry.list().find((s) => s.id === 'polish')).toMatchObject({ nameKey: 'skills.polish.name', needsSelection: true });
  });

  it('L0 definitions hold no dates, times or ids (they are part of the stable prefix)', () => {
    for (const s of BUILT_IN_SKILLS) {
      for (const text of typeof s.definition === 'string' ? [s.definition] : Object.values(s.definition)) {
        expect(text).not.toMatch(/\d{4}-\d{2}|\d{1,2}:\d{2}|[0-9a-f]{8}-[0-9a-f]{4}/);
      }
    }
  });

  it('issue 15: each built-in definition is written once per prompt language, in that language only', () => {
    for (const s of BUILT_IN_SKILLS) {
      if (typeof s.definition === 'string') throw new Error(`${s.id} has one text for both languages`);
      expect(s.definition.en, s.id).not.toMatch(/\p{Script=Han}/u);
      expect(s.definition.zh, s.id).toMatch(/\p{Script=Han}/u);
    }
  });

  it.each([
    [{ surrounding: 'all' }, 'context_rules.surrounding'],
    [{ memories: { topN: 99 } }, 'context_rules.memories.topN'],
    [{ history: { turns: 2, forever: true } }, 'context_rules.history'],
    ['{"characters": true,}', 'context_rules'],
    [{ plot: true }, 'context_rules'],
  ])('a custom skill with rules %j is INVALID_ARGUMENT at %s', (contextRules, field) => {
    const err = loadError({ id: 'my-skill', definition: 'Do something.', contextRules });
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.details?.fields).toContain(field);
  });

  it('a bad built-in fails when the registry is built, not when a user runs it', () => {
    expect(() => createSkillRegistry([{ id: 'x', definition: 'short id' }])).toThrow(EngineError);
    expect(() => createSkillRegistry([{ id: 'fine-id', definition: '  ' }])).toThrow('skill.definition');
    expect(() => createSkillRegistry().get('nope')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});
