/**
 * 003 压缩策略: an episode that decayed below 0.3 becomes a ~200-token summary that keeps the scene type, the
 * skill, the feedback, the key preference signals and the style features, and drops the full candidates, the
 * full input context and the kept text ("逐字编辑历史"). This is the deterministic template (no model needed);
 * the numbers distillation reads (`features`) survive compression on their own.
 */
import type { StyleFeatures } from '../episodes/features';

/** 003: "压缩为摘要（~200 tokens）" — a CJK character or a Latin word is about one token; 600 characters is the cap. */
export const SUMMARY_MAX_CHARS = 600;
const EXPLICIT_MAX_CHARS = 120;

export interface CompressibleEpisode {
  kind: string;
  skillUsed: string;
  sceneType: string;
  implicit: string;
  firstSignal: string | null;
  valence: number;
  editDistance: number | null;
  selectedIndex: number;
  candidateCount: number;
  explicit: string | null;
  uses: number;
  createdAt: number;
  features: { input?: StyleFeatures; candidates: StyleFeatures[]; final?: StyleFeatures; stated?: { dimension: string; pole: string }[] };
}

const r2 = (n: number) => Math.round(n * 100) / 100;

function style(label: string, f: StyleFeatures | undefined): string | null {
  if (!f || f.units === 0) return null;
  const parts = [`sentence ${r2(f.sentence)}`, `exclaim ${r2(f.exclaim)}`, `colloquial ${r2(f.colloquial)}`, `literary ${r2(f.literary)}`, `ornate ${r2(f.ornate)}`];
  if (f.firstPerson !== null) parts.push(`first-person ${r2(f.firstPerson)}`);
  return `${label}: ${parts.join(', ')}`;
}

/** The compressed episode's text. Deterministic: the same episode always gives the same summary. */
export function compressedSummary(e: CompressibleEpisode): string {
  const lines: string[] = [];
  lines.push(`[${e.kind}] scene ${e.sceneType} · skill ${e.skillUsed} · ${new Date(e.createdAt).toISOString().slice(0, 10)}`);
  const feedback = [`feedback ${e.implicit}`, `valence ${r2(e.valence)}`];
  if (e.firstSignal) feedback.push(`first ${e.firstSignal}`);
  if (e.editDistance !== null) feedback.push(`edit ${Math.round(e.editDistance * 100)}%`);
  lines.push(feedback.join(' · '));
  if (e.kind === 'skill-run') lines.push(e.selectedIndex < 0 ? `rejected all ${e.candidateCount} candidates` : `chose candidate ${e.selectedIndex + 1} of ${e.candidateCount}`);
  if (e.uses > 1) lines.push(`uses ${e.uses}`);
  const stated = e.features.stated ?? [];
  if (stated.length) lines.push(`stated: ${stated.map((s) => `${s.dimension}=${s.pole}`).join(', ')}`);
  const kept = e.selectedIndex >= 0 ? (e.features.final ?? e.features.candidates[e.selectedIndex]) : undefined;
  for (const line of [style('kept style', kept), style('input style', e.features.input)]) if (line) lines.push(line);
  if (e.explicit) {
    const said = [...e.explicit.replace(/\s+/g, ' ').trim()];
    lines.push(`said: ${said.slice(0, EXPLICIT_MAX_CHARS).join('')}${said.length > EXPLICIT_MAX_CHARS ? '…' : ''}`);
  }
  const text = lines.join('\n');
  return [...text].length > SUMMARY_MAX_CHARS ? `${[...text].slice(0, SUMMARY_MAX_CHARS - 1).join('')}…` : text;
}
