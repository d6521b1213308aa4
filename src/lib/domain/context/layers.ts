/**
 * The six layers of seed 004 ("6 层记忆架构") with seed 000's numbered parts mapped in
 * (ARCHITECTURE §6). The order of this array IS the injection order L0→L5; L0–L3 form the stable
 * prefix (KV-cache), L4–L5 the dynamic part. docs/design/01-memory-layers.md explains each row.
 */
import type { LayerId } from './types';

export interface LayerSpec {
  id: LayerId;
  /** English name used in headings and marker lines; fixed, never translated (prefix stability). */
  name: string;
  source: string;
  updateFrequency: 'static' | 'per-profile-change' | 'per-preference-change' | 'per-skill' | 'per-request';
  format: string;
  defaultBudget: number;
  stable: boolean;
  /**
   * What the layer shows when its source yields nothing or fails:
   * - `fail`: the run cannot be built (L0: no rules, no run) — assembleContext throws.
   * - `placeholder`: the section keeps its heading and fixed header; the body is the fixed empty
   *   placeholder (nothing there) or the fixed unavailability marker (could not read).
   * - `omit-with-marker`: the content is left out and one fixed marker line stands in its place.
   */
  onMissing: 'placeholder' | 'omit-with-marker' | 'fail';
}

export const LAYERS: readonly LayerSpec[] = [
  {
    id: 'L0',
    name: 'rules',
    source: 'system instructions (code) + the skill definition (skill registry)',
    updateFrequency: 'per-skill',
    format: 'instruction blocks in `order`, system instructions before the skill definition',
    defaultBudget: 1200,
    stable: true,
    onMissing: 'fail',
  },
  {
    id: 'L1',
    name: 'user profile',
    source: 'user_profile document (000 [1]), when memory.enable_user_profile',
    updateFrequency: 'per-profile-change',
    format: 'the profile document verbatim',
    defaultBudget: 400,
    stable: true,
    onMissing: 'placeholder',
  },
  {
    id: 'L2',
    name: 'preferences',
    source: 'semantic_rules: confirmed and learned rules (003), project over global',
    updateFrequency: 'per-preference-change',
    format: '003 block `[用户写作偏好 - 自动学习]` + `- <rule>（置信度: 0.87）` lines in creation order',
    defaultBudget: 600,
    stable: true,
    onMissing: 'placeholder',
  },
  {
    id: 'L3',
    name: 'project settings',
    source: ".engram/ files requested by the skill's context_rules (characters, world, style guide)",
    updateFrequency: 'per-skill',
    format: '`[file:<project-relative path>]` + the file text, trimmed at paragraph/sentence boundaries',
    defaultBudget: 1600,
    stable: true,
    onMissing: 'placeholder',
  },
  {
    id: 'L4',
    name: 'retrieved',
    source: 'memories (000 [3]), episodes (003), session summaries (000 [4]), rolling/compact summaries (002/004)',
    updateFrequency: 'per-request',
    format: '`[<id>] <text>` in retrieval rank order',
    defaultBudget: 1200,
    stable: false,
    onMissing: 'omit-with-marker',
  },
  {
    id: 'L5',
    name: 'immediate',
    source: 'recent turns (rolling window), working memory, selection + surrounding, the user message',
    updateFrequency: 'per-request',
    format: 'turns as native messages; labelled blocks for working memory, before/selection/after, message',
    defaultBudget: 3000,
    stable: false,
    onMissing: 'omit-with-marker',
  },
];

export function layerSpec(id: LayerId): LayerSpec {
  const spec = LAYERS.find((l) => l.id === id);
  if (!spec) throw new Error(`unknown layer ${id}`);
  return spec;
}
