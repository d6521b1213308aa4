/**
 * Sources of the stable layers L0–L3 (seed 004, docs/design/01-memory-layers.md). Each returns the
 * layer's items; `loadLayer` (in context-service.ts) adds the deadline and turns failures into markers.
 * Items carry a creation `order` where one exists, so new entries append (02 doc).
 */
import { preferenceItem, type ContextItem, type ContextRules, type PreferenceRule, type PromptLanguage } from '../../domain/context';
import type { ProjectFileStore } from '../files/project-file-store';
import { SETTINGS_ROOT } from '../files/project-file-store';
import type { RuleRepo } from '../store/rule-repo';
import type { LearningRepo } from '../store/learning-repo';
import { claimKey, claimsOf } from '../../domain/semantic/claims';
import { decayTier, ruleDecayScore } from '../../domain/lifecycle/decay';
import type { MemoryPort } from './memory-port';
import type { LoadedSkill } from './skills';
import { SYSTEM_INSTRUCTIONS } from './system-prompt';

/** L0: the system instructions, then the skill definition (a skill switch keeps the first cached). */
export function rulesItems(skill: LoadedSkill, lang: PromptLanguage): ContextItem[] {
  return [
    { id: 'system:base', kind: 'system', order: 0, text: SYSTEM_INSTRUCTIONS[lang] },
    { id: `skill:${skill.id}`, kind: 'skill', order: 1, text: skill.definition(lang) },
  ];
}

/** L1: the profile document (000 [1]); nothing when it is empty. */
export function profileItems(memory: MemoryPort): ContextItem[] {
  const p = memory.profile();
  return p.content.trim() === '' ? [] : [{ id: 'profile', kind: 'profile', text: p.content, source: `profile:v${p.version}` }];
}

/**
 * L2: active project and global rules (003), as preference items in creation order, each with what it
 * claims (for scope masking) and whether an open direct contradiction suspends it: neither side is
 * injected as a fact until the user chooses — except a confirmed rule against an unconfirmed one, which
 * stays (the user said so; the learned one is what is in doubt).
 */
export function preferenceItems(rules: RuleRepo, projectId: string | null, conflicts: LearningRepo['conflicts'], now: number): ContextItem[] {
  // 003 衰减分级: a learned rule whose decay fell below 0.3 (compress / evict tiers) is out of the context, as a
  // faded episode is out of recall; confirmed, user-written and pinned rules are exempt (ruleDecayScore).
  const active = rules.activeFor(projectId).filter((r) => {
    const tier = decayTier(ruleDecayScore(r, now));
    return tier === 'active' || tier === 'decaying';
  });
  const byId = new Map(active.map((r) => [r.id, r]));
  return active.map((r) => {
    let suspended = false;
    if (r.conflictId) {
      const c = conflicts.find(r.conflictId);
      const other = c ? byId.get(c.ruleA === r.id ? c.ruleB : c.ruleA) : undefined;
      suspended = !(r.userConfirmed && other !== undefined && !other.userConfirmed);
    }
    return preferenceItem({ ...toPreference(r), suspended });
  });
}

function toPreference(r: ReturnType<RuleRepo['activeFor']>[number]): PreferenceRule {
  return {
    id: r.id,
    rule: r.rule,
    scope: r.scope,
    confidence: r.confidence,
    userConfirmed: r.userConfirmed,
    ...(r.key === null ? {} : { key: r.key }),
    order: r.order,
    claims: claimsOf(r).map(claimKey),
  };
}

/**
 * 003 "记忆检索失败时降级到默认规则": what L2 shows (status `degraded`) when the rules cannot be read.
 * Generic and safe for any writer; fixed text, so the prefix stays stable while degraded.
 */
export const DEFAULT_RULES: Record<PromptLanguage, readonly ContextItem[]> = {
  en: [
    preferenceItem({ id: 'default:language', rule: 'keep the original language, person and tone', scope: 'global', confidence: 0.5, order: 0 }),
    preferenceItem({ id: 'default:concise', rule: 'be clear and concise', scope: 'global', confidence: 0.5, order: 1 }),
  ],
  zh: [
    preferenceItem({ id: 'default:language', rule: '保持原文的语言、人称与语气', scope: 'global', confidence: 0.5, order: 0 }),
    preferenceItem({ id: 'default:concise', rule: '表达清晰简洁，避免空话', scope: 'global', confidence: 0.5, order: 1 }),
  ],
};

type FileKind = 'character' | 'style-guide' | 'setting';

function kindOf(path: string): FileKind {
  if (path.startsWith(`${SETTINGS_ROOT}/characters/`)) return 'character';
  if (path.startsWith(`${SETTINGS_ROOT}/style/`)) return 'style-guide';
  return 'setting';
}

const baseName = (path: string) => (path.split('/').pop() ?? '').replace(/\.[^.]*$/, '');

/**
 * Which files a run loads (seed 004 "设定按需加载"): only the folders the skill's rules ask for —
 * characters (all, or the named ones), style, and everything else for `project-settings`. Chat has
 * no rules and gets every file (L3's budget trims them).
 */
export function wantedFile(path: string, rules: ContextRules | undefined): boolean {
  // The skill-run history (run-history.ts) is L4 material, compact and changing: never a setting.
  if (path.startsWith(`${SETTINGS_ROOT}/history/`)) return false;
  if (!rules) return true;
  const kind = kindOf(path);
  if (kind === 'character') {
    if (Array.isArray(rules.characters)) {
      const names = new Set(rules.characters.map((n) => n.normalize('NFC').toLowerCase()));
      return names.has(baseName(path).normalize('NFC').toLowerCase());
    }
    return rules.characters === true;
  }
  if (kind === 'style-guide') return rules.style === true;
  return rules['project-settings'] === true;
}

/**
 * L3: the requested `.engram/` files, cited by their project-relative path. A very long file is cut to
 * `maxChars` code points before tokenising (the budget trims it at a boundary afterwards anyway).
 */
export async function settingsItems(opts: {
  files: ProjectFileStore;
  projectId: string;
  rules: ContextRules | undefined;
  maxChars: number;
  signal: AbortSignal;
}): Promise<ContextItem[]> {
  const entries = (await opts.files.list(opts.projectId)).filter((e) => wantedFile(e.path, opts.rules));
  const items: ContextItem[] = [];
  for (const e of entries) {
    if (opts.signal.aborted) break;
    const text = await opts.files.read(opts.projectId, e.path);
    if (text === null || text.trim() === '') continue;
    const cps = Array.from(text);
    const kind = kindOf(e.path);
    items.push({
      id: `file:${e.path}`,
      kind,
      text: cps.length > opts.maxChars ? cps.slice(0, opts.maxChars).join('') : text,
      ...(kind === 'character' ? { meta: { name: baseName(e.path) } } : {}),
    });
  }
  return items;
}
