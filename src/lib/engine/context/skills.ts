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
import { parseContextRules, type ContextRules, type PromptLanguage } from '../../domain/context';
import { EngineError } from '../../domain/errors';
import type { SkillInfo } from './types';

/** A skill's L0 block: stable text, one per prompt language (a custom skill's single text serves both). */
export type SkillText = string | Record<PromptLanguage, string>;

export interface SkillDefinition {
  id: string;
  definition: SkillText;
  /** Raw rules as written in the definition (object or JSON string); `undefined` = declares nothing. */
  contextRules?: unknown;
  needsSelection?: boolean;
  /** The output takes the selection's place (polish): its length against the input's says something (issue 17). */
  replacesInput?: boolean;
}

export interface LoadedSkill {
  id: string;
  /** The L0 skill block in the prompt's language. */
  definition: (lang: PromptLanguage) => string;
  /** `undefined` for chat: assembleContext then uses every supplied item. */
  rules: ContextRules | undefined;
  replacesInput: boolean;
  info: SkillInfo;
}

const SKILL_ID = /^[a-z][a-z0-9-]{1,40}$/;

export const BUILT_IN_SKILLS: readonly SkillDefinition[] = [
  {
    id: 'chat',
    definition: {
      en: "Task: answer the user's message. Use what you know about them and the relevant memories where they help; say so when an answer rests on a memory.",
      zh: '任务：回答用户的消息。在有帮助时使用对用户的了解与相关记忆；若回答依据了某条记忆，请说明。',
    },
  },
  {
    id: 'continue',
    definition: {
      en: "Task (continue): continue the text after the selection (or after the text before the cursor) in the author's voice. Keep characters, facts and style consistent with the project settings; write only the continuation.",
      zh: '任务（续写）：在选区之后（或光标前的文字之后）按作者的语气续写，保持人物、设定与风格一致，只输出续写部分。',
    },
    contextRules: { surrounding: 1500, characters: true, 'project-settings': true, style: true, memories: { topN: 5 }, history: { summaries: true } },
    needsSelection: false,
  },
  {
    id: 'polish',
    definition: {
      en: 'Task (polish): rewrite the selection so it reads better; keep its meaning, language and point of view. Output only the rewritten selection.',
      zh: '任务（润色）：改写选区使其更通顺；保持原意、语言与视角，只输出改写后的选区。',
    },
    contextRules: { surrounding: 500, style: true },
    needsSelection: true,
    replacesInput: true,
  },
  {
    id: 'summarize',
    definition: {
      en: 'Task (summarize): summarise the selection in a few sentences, in its language.',
      zh: '任务（摘要）：用原文的语言把选区概括为几句话。',
    },
    contextRules: { surrounding: 0, history: false },
    needsSelection: true,
  },
  {
    id: 'consistency-check',
    definition: {
      en: 'Task (consistency check): find contradictions between the selection and the project settings, earlier chapters and known facts (who, where, when, status). For each finding, quote its evidence and name the file or chapter it is from.',
      zh: '任务（一致性检查）：找出选区与设定、前文及已知事实（谁、在哪、何时、状态）之间的矛盾。每条发现都引用证据原文，并注明出自哪个文件或章节。',
    },
    contextRules: { characters: true, 'project-settings': true, memories: true },
    needsSelection: true,
  },
];

/** Validates a skill definition; the single path for built-in and custom skills. */
export function loadSkill(def: SkillDefinition): LoadedSkill {
  if (!SKILL_ID.test(def.id)) {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `skill.id`: expected a kebab-case id of 2–41 characters', { fields: ['skill.id'] });
  }
  const texts: Record<PromptLanguage, string> = typeof def.definition === 'string' ? { en: def.definition, zh: def.definition } : def.definition;
  if (texts.en.trim() === '' || texts.zh.trim() === '') {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `skill.definition`: must not be empty', { fields: ['skill.definition'] });
  }
  // parseContextRules names the path (`context_rules.memories.topN`) and never echoes the value.
  const rules = def.contextRules === undefined ? undefined : parseContextRules(def.contextRules);
  return {
    id: def.id,
    definition: (lang) => texts[lang],
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
