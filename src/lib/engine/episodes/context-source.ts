/**
 * What the writing memory gives a skill run's context (seed 003 "三层记忆协作"):
 *
 *   passage ─▶ scene type (heuristic classifier)
 *     ├─▶ working memory (Layer 1, on a chapter): focus, task, intent, chapter context ─▶ L5 `working-memory:write`
 *     ├─▶ episodes (Layer 2): 3–5 by scene type + text similarity, with why ─▶ L4 items `episode:<id>`
 *     └─  semantic rules (Layer 3) are L2, loaded by the context service as before
 *   commit (in the build's transaction): the run's learning row (scene, passage summary, intent, the
 *   working memory as the inspector shows it, the episodes with why) · recall_count + 1 for those kept
 */
import type { ContextItem, LayerResult } from '../../domain/context';
import { styleFeatures } from '../../domain/episodes/features';
import { classifyScene, type SceneType } from '../../domain/episodes/scene-type';
import { excerpt, summarizePassage } from '../../domain/episodes/summary';
import type { ImplicitSignal } from '../../domain/episodes/signals';
import { SCENE_LABEL, SKILL_LABEL } from '../../domain/semantic/templates';
import { renderWritingMemory } from '../../domain/writing/working-memory';
import { defaultTokenCounter } from '../../domain/text/tokens';
import type { ContextDeps } from '../context/deps';
import { keptText } from '../store/episode-repo';
import { recallEpisodes } from './recall';
import type { Episode, RecalledEpisode, WritingMemoryView } from './types';

/** The share of the Immediate layer the working memory may fill; the selection and message come first. */
export const WM_SHARE_OF_L5 = 0.4;
/** Without a selection (continue at the cursor) the passage is the end of the text before it. */
const TAIL_CHARS = 400;

const OUTCOME: Record<ImplicitSignal, string> = {
  'strong-positive': '直接采用 · accepted as it was',
  'weak-positive': '小改后采用 · kept with a small edit',
  mixed: '改动后采用 · kept, partly rewritten',
  'weak-negative': '大幅改写 · largely rewritten',
  'strong-negative': '全部拒绝 · every candidate rejected',
  'delayed-negative': '采用后撤销 · accepted, then undone',
  'scene-skill-preference': '反复使用 · used again and again',
  'verdict-negative': '判断有误 · judged wrong',
};

/** One episode as an L4 line: when, what scene, which skill, what the user did, and what they kept. */
export function episodeItem(e: Episode): ContextItem {
  const scene = SCENE_LABEL[e.sceneType];
  const skill = SKILL_LABEL[e.skillUsed] ?? { zh: e.skillUsed, en: e.skillUsed };
  const day = new Date(e.createdAt).toISOString().slice(0, 10);
  const choice = e.candidates.length > 1 && e.selectedIndex >= 0 ? `，${e.candidates.length} 选 ${e.selectedIndex + 1} · chose ${e.selectedIndex + 1} of ${e.candidates.length}` : '';
  const distance = e.editDistance !== null && e.editDistance > 0 ? ` (${Math.round(e.editDistance * 100)}%)` : '';
  const kept = keptText(e);
  const head = `情景 · episode ${day} · ${scene.zh} ${scene.en} · ${skill.zh} ${skill.en} · ${OUTCOME[e.implicit]}${distance}${choice}`;
  const body = e.selectedIndex >= 0 && kept ? `「${excerpt(kept, 160)}」` : e.inputContext ? `（原文 · passage: ${excerpt(e.inputContext, 120)}）` : '';
  return { id: `episode:${e.id}`, kind: 'episode', text: body ? `${head}: ${body}` : head, meta: { sceneType: e.sceneType } };
}

export interface LearningContext {
  sceneType: SceneType;
  /** L5: the writing working memory. */
  workingMemory: ContextItem[];
  /** L4: the recalled episodes, best first. */
  episodes: () => ContextItem[];
  /** In the build's transaction, with the layers as assembled. */
  commit(runId: string, layers: readonly LayerResult[]): void;
}

export function prepareLearningContext(
  deps: ContextDeps,
  input: {
    skillId: string;
    projectId: string | null;
    /** The chapter; without one there is no working memory (it is the chapter's), the rest still applies. */
    document: { id: string; title: string; content: string } | null;
    selection?: { before: string; text: string; after: string };
    message: string;
    typed: boolean;
    /** L5's token budget for this run: the working memory takes at most its share of it. */
    l5Budget: number;
    /**
     * The skill asks for history (004 context_rules): only then does the chapter context beyond the
     * selection's `surrounding` go to the model (004 精准注入 — polish gets its surrounding text only).
     */
    chapterContext: boolean;
  },
): LearningContext {
  const sel = input.selection;
  const passage = sel && sel.text.trim() !== '' ? sel.text : Array.from(sel?.before ?? '').slice(-TAIL_CHARS).join('');
  const sceneType = classifyScene(passage).sceneType;
  const doc = input.document;
  const memory = doc
    ? deps.writing.onBuild({
        documentId: doc.id,
        projectId: input.projectId,
        chapter: { title: doc.title, content: doc.content },
        focusOffset: sel ? sel.before.length : doc.content.length,
        passage,
        sceneType,
        skillId: input.skillId,
        message: input.message,
        typed: input.typed,
      })
    : null;
  const rendered = memory
    ? renderWritingMemory(memory.wm, {
        maxTokens: Math.floor(input.l5Budget * WM_SHARE_OF_L5),
        counter: defaultTokenCounter,
        now: deps.env.clock.now(),
        exclude: input.chapterContext ? [] : ['chapter'],
      })
    : '';
  let recalled: RecalledEpisode[] = [];
  return {
    sceneType,
    workingMemory: rendered ? [{ id: 'working-memory:write', kind: 'working-memory', text: rendered }] : [],
    episodes() {
      const res = recallEpisodes(
        { episodes: deps.episodes, clock: deps.env.clock, log: deps.env.log },
        { projectId: input.projectId, sceneType, text: passage },
      );
      recalled = res.items;
      return res.items.map((r) => episodeItem(r.episode));
    },
    commit(runId, layers) {
      const l4 = new Set(layers.find((l) => l.id === 'L4')?.items.map((i) => i.id) ?? []);
      const kept = recalled.filter((r) => l4.has(`episode:${r.episode.id}`)).map((r) => r.episode.id);
      deps.learning.runs.put({
        runId,
        documentId: doc?.id ?? null,
        projectId: input.projectId,
        skillId: input.skillId,
        sceneType,
        inputSummary: summarizePassage(passage),
        inputFeatures: passage.trim() ? styleFeatures(passage) : null,
        intent: input.typed ? input.message : null,
        workingMemory: (memory?.view ?? null) satisfies WritingMemoryView | null,
        episodes: recalled.map((r) => ({ id: r.episode.id, why: r.why, kept: l4.has(`episode:${r.episode.id}`) })),
      });
      // 003 "被召回": only what the context kept counts as recalled.
      deps.episodes.markRecalled(kept);
    },
  };
}
