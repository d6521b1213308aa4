/** Test fixtures for distillation: episodes as evidence, from texts (the features are computed for real). */
import { styleFeatures } from '../episodes/features';
import type { SceneType } from '../episodes/scene-type';
import { classifyOutcome, valenceOf, type ImplicitSignal } from '../episodes/signals';
import type { EpisodeEvidence } from './votes';

let n = 0;

export function evidence(opts: {
  id?: string;
  skillId?: string;
  sceneType?: SceneType;
  projectId?: string | null;
  input?: string;
  candidates: string[];
  selectedIndex: number;
  finalText?: string;
  signal?: ImplicitSignal;
  at?: number;
  replaces?: boolean;
  negated?: EpisodeEvidence['negated'];
}): EpisodeEvidence {
  const chosen = opts.candidates[opts.selectedIndex];
  const signal = opts.signal ?? classifyOutcome(opts).signal;
  return {
    id: opts.id ?? `e-${String(++n).padStart(5, '0')}`,
    kind: 'skill-run',
    projectId: opts.projectId === undefined ? 'p-1' : opts.projectId,
    skillId: opts.skillId ?? 'continue',
    sceneType: opts.sceneType ?? 'action',
    signal,
    valence: valenceOf(signal),
    selectedIndex: opts.selectedIndex,
    replaces: opts.replaces ?? false,
    features: {
      ...(opts.input ? { input: styleFeatures(opts.input) } : {}),
      candidates: opts.candidates.map(styleFeatures),
      ...(opts.finalText !== undefined && opts.finalText !== chosen ? { final: styleFeatures(opts.finalText) } : {}),
    },
    negated: opts.negated ?? [],
    uses: 1,
    createdAt: opts.at ?? 0,
  };
}

export const SHORT = '他出拳。对方闪开。刀落地。他扑上去。';
export const LONG = '他在漫长而寂静的夜色里缓缓举起那只早已疲惫不堪的手臂，朝着对方的脸用尽全身的力气挥出了沉重的一拳，而对方只是轻轻一侧身便躲开了这一击。';
