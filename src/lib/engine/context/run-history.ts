/**
 * Full → compact for skill runs (seed 004 "历史对话/运行记录超过阈值 … 生成结构化 Compact 摘要并持久化",
 * issue 5 item 6). A project's finished skill runs are its run history; past the threshold, all but the
 * newest few become one structured compact summary, appended to a file in the project's `.engram/`
 * folder (004: large memory lives in files, cited by project-relative path):
 *
 *   .engram/history/skill-runs.md
 *     # Skill run history · 技能运行历史
 *     compact summary 压缩摘要 (1–15) · full: context_runs#<first run>…<last run>
 *     topics 主题: polish ×9；continue ×6
 *     decisions 决定: polish: accepted 6 · edited 1 · rejected 2 …
 *     runs 运行: <every run id>                       ← the way back to the full runs (run.get, inspector)
 *     <!-- engram:skill-runs covered=15 until=<ms> --> ← where the next compaction starts
 *
 * Skills that ask for history summaries get the compact text in L4 (never L3: it is not a setting and
 * must not move the stable prefix). The full runs stay in `context_runs` with their feedback.
 */
import { createCompactSummary, type ContextItem } from '../../domain/context';
import type { ProjectFileStore } from '../files/project-file-store';
import { SETTINGS_ROOT } from '../files/project-file-store';
import type { DocumentRepo } from '../store/document-repo';
import type { FeedbackRepo } from '../store/feedback-repo';
import type { RunRepo } from '../store/run-repo';
import type { ContextTuning } from './tuning';
import type { RunSummary } from './types';

export const RUN_HISTORY_FOLDER = `${SETTINGS_ROOT}/history`;
export const RUN_HISTORY_PATH = `${RUN_HISTORY_FOLDER}/skill-runs.md`;
const HEADER = '# Skill run history · 技能运行历史';
const MARK = /<!-- engram:skill-runs covered=(\d+) until=(\d+) -->/g;
/** Runs one document contributes at most (far above any threshold). */
const RUNS_PER_DOCUMENT = 500;

type Outcome = 'accept' | 'partial' | 'reject' | 'none';
const OUTCOME_LABEL: Record<Outcome, string> = { accept: 'accepted', partial: 'edited', reject: 'rejected', none: 'no feedback' };

/** Where the last compaction ended: how many runs it covered, and the creation time of the last one. */
function coveredSoFar(text: string | null): { covered: number; until: number } {
  let covered = 0;
  let until = -1;
  for (const m of (text ?? '').matchAll(MARK)) {
    covered = Number(m[1]);
    until = Number(m[2]);
  }
  return { covered, until };
}

export function createRunHistory(deps: { files: ProjectFileStore; documents: DocumentRepo; runs: RunRepo; feedback: FeedbackRepo; tuning: ContextTuning }) {
  const { tuning } = deps;

  /** The project's finished skill runs, oldest first, each with the last feedback it got. */
  function finishedRuns(projectId: string): (RunSummary & { outcome: Outcome; document: string })[] {
    return deps.documents
      .list(projectId)
      .flatMap((doc) =>
        deps.runs
          .list({ documentId: doc.id, limit: RUNS_PER_DOCUMENT })
          .filter((r) => r.kind === 'skill' && r.status === 'completed')
          .map((r) => ({ ...r, document: doc.title, outcome: (deps.feedback.list({ runId: r.id, limit: 1 })[0]?.action ?? 'none') as Outcome })),
      )
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  function summarise(runs: ReturnType<typeof finishedRuns>, range: { from: number; to: number }): string {
    const bySkill = new Map<string, Record<Outcome, number>>();
    for (const r of runs) {
      const counts = bySkill.get(r.skillId) ?? { accept: 0, partial: 0, reject: 0, none: 0 };
      counts[r.outcome]++;
      bySkill.set(r.skillId, counts);
    }
    const skills = [...bySkill.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const compact = createCompactSummary({
      range,
      topics: skills.map(([skill, c]) => `${skill} ×${c.accept + c.partial + c.reject + c.none}`),
      decisions: skills.map(
        ([skill, c]) =>
          `${skill}: ${(Object.keys(OUTCOME_LABEL) as Outcome[])
            .filter((o) => c[o] > 0)
            .map((o) => `${OUTCOME_LABEL[o]} ${c[o]}`)
            .join(' · ')}`,
      ),
      openQuestions: [],
      entities: [...new Set(runs.map((r) => r.document.trim()).filter((t) => t !== ''))].slice(0, 10).map((t) => t.slice(0, 80)),
      fullRef: { table: 'context_runs', ids: runs.map((r) => r.id) },
    });
    return compact.text;
  }

  /** Appends a compact section when the project's uncompacted finished runs pass the threshold; returns the file's text. */
  async function compact(projectId: string, text: string | null): Promise<string | null> {
    const { covered, until } = coveredSoFar(text);
    const open = finishedRuns(projectId).filter((r) => r.createdAt > until);
    if (open.length <= tuning.runCompactMaxEntries) return text;
    const old = open.slice(0, open.length - tuning.runCompactKeepRecent);
    const last = old[old.length - 1];
    if (!last) return text;
    const section = [
      summarise(old, { from: covered + 1, to: covered + old.length }),
      `runs 运行: ${old.map((r) => r.id).join(', ')}`,
      `<!-- engram:skill-runs covered=${covered + old.length} until=${last.createdAt} -->`,
    ].join('\n');
    // Append-only: earlier sections stay byte for byte.
    const next = text && text.trim() !== '' ? `${text.replace(/\s*$/u, '')}\n\n${section}\n` : `${HEADER}\n\n${section}\n`;
    await deps.files.write(projectId, RUN_HISTORY_PATH, next);
    return next;
  }

  return {
    /**
     * L4 for a skill that asks for history: compacts first when due, then gives the compact summaries —
     * without the run-id lists and markers, which are the way back, not context. The file is only read
     * when it exists.
     */
    async load(projectId: string): Promise<ContextItem[]> {
      const exists = (await deps.files.list(projectId, RUN_HISTORY_FOLDER)).some((e) => e.path === RUN_HISTORY_PATH);
      const text = await compact(projectId, exists ? await deps.files.read(projectId, RUN_HISTORY_PATH) : null);
      if (!text) return [];
      const body = text
        .split('\n')
        .filter((l) => l !== HEADER && !l.startsWith('runs 运行:') && !l.startsWith('<!-- engram:'))
        .join('\n')
        .trim();
      return body === '' ? [] : [{ id: `compact:runs:${projectId}`, kind: 'compact', text: body, source: RUN_HISTORY_PATH }];
    },
  };
}

export type RunHistory = ReturnType<typeof createRunHistory>;
