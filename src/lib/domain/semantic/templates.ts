/**
 * A learned rule's text when no model phrases it (seed 003 "自然语言规则生成", statistics → template).
 * Bilingual and fixed, like every line of the stable prefix: the prompt must not change with the UI
 * language (docs/design/02-kv-cache-optimization.md). Format after 003's example:
 *
 *   动作场景：偏好短句（平均 < 15 字）· action scenes: short sentences (under 15 characters on average)
 */
import type { SceneType } from '../episodes/scene-type';
import type { HypothesisId } from './hypotheses';

export const SCENE_LABEL: Record<SceneType, { zh: string; en: string }> = {
  dialogue: { zh: '对白', en: 'dialogue' },
  action: { zh: '动作场景', en: 'action scenes' },
  description: { zh: '描写', en: 'description' },
  introspection: { zh: '内心独白', en: 'inner monologue' },
  exposition: { zh: '背景交代', en: 'exposition' },
  narration: { zh: '叙述', en: 'narration' },
};

export const SKILL_LABEL: Record<string, { zh: string; en: string }> = {
  chat: { zh: '对话', en: 'chat' },
  continue: { zh: '续写', en: 'continue' },
  polish: { zh: '润色', en: 'polish' },
  summarize: { zh: '摘要', en: 'summarize' },
  'consistency-check': { zh: '一致性检查', en: 'consistency check' },
};

const skillLabel = (id: string) => SKILL_LABEL[id] ?? { zh: id, en: id };

/** A pattern's group: everything, one scene type, one skill, or both. */
export type Group = { scene: SceneType | null; skill: string | null };

export function groupKey(g: Group): string {
  if (g.scene && g.skill) return `scene.${g.scene}.skill.${g.skill}`;
  if (g.scene) return `scene.${g.scene}`;
  if (g.skill) return `skill.${g.skill}`;
  return 'all';
}

function groupPrefix(g: Group): { zh: string; en: string } {
  if (g.scene && g.skill) {
    const s = SCENE_LABEL[g.scene];
    const k = skillLabel(g.skill);
    return { zh: `${s.zh}·${k.zh}：`, en: `${s.en}, ${k.en}: ` };
  }
  if (g.scene) return { zh: `${SCENE_LABEL[g.scene].zh}：`, en: `${SCENE_LABEL[g.scene].en}: ` };
  if (g.skill) return { zh: `${skillLabel(g.skill).zh}：`, en: `${skillLabel(g.skill).en}: ` };
  return { zh: '', en: '' };
}

export interface PoleDetail {
  /** For sentence length: the rounded mean the rule quotes, and whether the texts count characters or words. */
  threshold?: number;
  unit?: 'zh' | 'en';
}

function poleText(h: HypothesisId | 'skill-choice', pole: string, d: PoleDetail): { zh: string; en: string } {
  const n = d.threshold ?? 15;
  const zhUnit = d.unit === 'en' ? '词' : '字';
  const enUnit = d.unit === 'en' ? 'words' : 'characters';
  switch (h) {
    case 'sentence-length':
      return pole === 'short'
        ? { zh: `偏好短句（平均 < ${n} ${zhUnit}）`, en: `short sentences (under ${n} ${enUnit} on average)` }
        : { zh: `偏好长句（平均 ≥ ${n} ${zhUnit}）`, en: `long sentences (${n}+ ${enUnit} on average)` };
    case 'length':
      return pole === 'shorter'
        ? { zh: '偏好比原文更短的结果', en: 'results shorter than the original' }
        : { zh: '偏好比原文更长、更充实的结果', en: 'results longer than the original' };
    case 'exclamation':
      return pole === 'avoid' ? { zh: '避免使用感叹号', en: 'avoid exclamation marks' } : { zh: '可以用感叹号加强语气', en: 'exclamation marks are welcome' };
    case 'person':
      return pole === 'first' ? { zh: '使用第一人称', en: 'first person' } : { zh: '使用第三人称', en: 'third person' };
    case 'register':
      return pole === 'colloquial' ? { zh: '口语化，避免书面语气', en: 'colloquial, not formal' } : { zh: '书面、典雅的语气', en: 'formal, literary tone' };
    case 'ornate':
      return pole === 'ornate' ? { zh: '偏好华丽辞藻', en: 'ornate, richly adorned prose' } : { zh: '偏好简洁风格', en: 'plain, concise style' };
    case 'skill-choice': {
      const k = skillLabel(pole);
      return { zh: `常用「${k.zh}」`, en: `usually ${k.en}` };
    }
  }
}

export function templateRule(opts: { group: Group; hypothesis: HypothesisId | 'skill-choice'; pole: string; detail?: PoleDetail }): string {
  const p = groupPrefix(opts.group);
  const t = poleText(opts.hypothesis, opts.pole, opts.detail ?? {});
  return `${p.zh}${t.zh} · ${p.en}${t.en}`;
}
