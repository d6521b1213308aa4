/**
 * Built-in skills (seed 004 "SKILL 的 context_rules"). Skills are code: an id, i18n keys for the UI, the
 * L0 definition text (fixed, no dates or ids — it is part of the stable prefix) and the `context_rules`
 * that decide what the engine loads. Every definition, built-in or custom, goes through `loadSkill`,
 * so an invalid `context_rules` is INVALID_ARGUMENT naming the field path before anything is loaded.
 *
 *   skill            surrounding  characters  project-settings  style  memories     history
 *   chat             (no rules: everything the engine supplies)
 *   continue         1500         all         yes               yes    topN 5       summaries
 *   polish           500          —           —                 yes    —            —
 *   summarize        0            —           —                 —      —            false
 *   consistency-check —           all         yes               —      yes          —
 */
import { parseContextRules, type ContextRules } from '../../domain/context';
import { EngineError } from '../../domain/errors';
import type { SkillInfo } from './types';

export interface SkillDefinition {
  id: string;
  /** The L0 skill block; stable text, English and Chinese side by side (no UI-language switch). */
  definition: string;
  /** Raw rules as written in the definition (object or JSON string); `undefined` = declares nothing. */
  contextRules?: unknown;
  needsSelection?: boolean;
  /** The output takes the selection's place (polish): its length against the input's says something (issue 17). */
  replacesInput?: boolean;
}

export interface LoadedSkill {
  id: string;
  definition: string;
  /** `undefined` for chat: assembleContext then uses every supplied item. */
  rules: ContextRules | undefined;
  replacesInput: boolean;
  info: SkillInfo;
}

const SKILL_ID = /^[a-z][a-z0-9-]{1,40}$/;

export const BUILT_IN_SKILLS: readonly SkillDefinition[] = [
  {
    id: 'chat',
    definition:
      'Skill "chat" · 对话: answer the user\'s message. Use the profile, preferences and retrieved memories when they are relevant; say so when you rely on them. 回答用户的消息，必要时使用画像、偏好与相关记忆。',
  },
  {
    id: 'continue',
    definition:
      'Skill "continue" · 续写: continue the text after the selection (or after the text before the cursor) in the author\'s voice. Keep characters, facts and style consistent with the project settings; write only the continuation. 按作者的语气续写，保持人物、设定与风格一致，只输出续写部分。',
    contextRules: { surrounding: 1500, characters: true, 'project-settings': true, style: true, memories: { topN: 5 }, history: { summaries: true } },
    needsSelection: false,
  },
  {
    id: 'polish',
    definition:
      'Skill "polish" · 润色: rewrite the selection so it reads better; keep its meaning, language and point of view. Output only the rewritten selection. 润色选区：保持原意、语言与视角，只输出改写后的选区。',
    contextRules: { surrounding: 500, style: true },
    needsSelection: true,
    replacesInput: true,
  },
  {
    id: 'summarize',
    definition:
      'Skill "summarize" · 摘要: summarise the selection in a few sentences, in its language. 用原文的语言把选区概括为几句话。',
    contextRules: { surrounding: 0, history: false },
    needsSelection: true,
  },
  {
    id: 'consistency-check',
    definition:
      'Skill "consistency-check" · 一致性检查: find contradictions between the selection and the project settings, earlier chapters and known facts (who, where, when, status). Cite the evidence for each finding (file, document, memory). 找出选区与设定、前文及已知事实之间的矛盾，并为每条发现引用证据。',
    contextRules: { characters: true, 'project-settings': true, memories: true },
    needsSelection: true,
  },
];

/** Validates a skill definition; the single path for built-in and custom skills. */
export function loadSkill(def: SkillDefinition): LoadedSkill {
  if (!SKILL_ID.test(def.id)) {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `skill.id`: expected a kebab-case id of 2–41 characters', { fields: ['skill.id'] });
  }
  if (def.definition.trim() === '') {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `skill.definition`: must not be empty', { fields: ['skill.definition'] });
  }
  // parseContextRules names the path (`context_rules.memories.topN`) and never echoes the value.
  const rules = def.contextRules === undefined ? undefined : parseContextRules(def.contextRules);
  return {
    id: def.id,
    definition: def.definition,
    rules,
    replacesInput: def.replacesInput ?? false,
    info: {
      id: def.id,
      nameKey: `skills.${def.id}.name`,
      descriptionKey: `skills.${def.id}.description`,
      contextRules: rules ?? {},
      needsSelection: def.needsSelection ?? false,
    },
  };
}

/** The registry: built-ins loaded once (a bad built-in fails at start-up, in every test). */
export function createSkillRegistry(defs: readonly SkillDefinition[] = BUILT_IN_SKILLS) {
  const skills = new Map(defs.map((d) => [d.id, loadSkill(d)] as const));
  return {
    list: (): SkillInfo[] => [...skills.values()].map((s) => s.info),
    get(id: string): LoadedSkill {
      const skill = skills.get(id);
      if (!skill) throw new EngineError('NOT_FOUND', 'No skill with that `skillId`.', { field: 'skillId' });
      return skill;
    },
  };
}

export type SkillRegistry = ReturnType<typeof createSkillRegistry>;
