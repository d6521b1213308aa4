/** Fixtures for the seed-004 context acceptance tests (a project with setting files, builds, probes). */
import { expectOk, type TestEngine } from '../../src/lib/engine/testing';
import type { ContextBuildResult } from '../../src/lib/engine/context/types';
import type { ProjectFileStore } from '../../src/lib/engine/files/project-file-store';
import type { Input } from '../../src/lib/engine/protocol/contract';

export const ALICE = 'Alice 是飞船的领航员，冷静，说话很少。她左手有一道旧伤疤。';
export const WORLD = '故事发生在 2300 年的木星轨道站。';
export const STYLE = '少用形容词。每段不超过五句。';

export async function project(t: TestEngine, files: Record<string, string> = {}) {
  const p = expectOk(await t.engine.call('project.create', { name: '科幻短篇' }));
  for (const [path, content] of Object.entries(files)) expectOk(await t.engine.call('projectFile.write', { projectId: p.id, path, content }));
  return p;
}

export const withSettings = (t: TestEngine) =>
  project(t, { '.engram/characters/alice.md': ALICE, '.engram/world/setting.md': WORLD, '.engram/style/guide.md': STYLE });

export async function build(t: TestEngine, input: Partial<Input<'context.build'>> = {}): Promise<ContextBuildResult> {
  return expectOk(await t.engine.call('context.build', { kind: 'chat', message: '你好', locale: 'zh-CN', ...input }));
}

export const layer = (r: ContextBuildResult, id: string) => r.layers.find((l) => l.id === id) as ContextBuildResult['layers'][number];
/** L0–L3 as sent: a layer with nothing in it sends nothing (issue 15). */
export const prefixOf = (r: ContextBuildResult) => `${r.layers.slice(0, 4).map((l) => l.text).filter((x) => x !== '').join('\n\n')}\n`;
export const allText = (r: ContextBuildResult) => r.messages.map((m) => m.content).join('\n');
export const pending = (t: TestEngine) => t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM context_runs WHERE status = 'pending'")?.n;
export const SELECTION = { before: '飞船缓缓驶入轨道站。', text: '她非常非常快速地跑向了控制台，然后按下了按钮。', after: '警报停了。' };

/** A store whose reads can be counted, slowed or broken (the "source" of L3). */
export function instrumented(base: ProjectFileStore, mode: { reads: string[]; hang?: boolean; fail?: boolean }): ProjectFileStore {
  return {
    ...base,
    async read(projectId, path) {
      mode.reads.push(path);
      if (mode.fail) throw new Error('disk gone');
      if (mode.hang) return new Promise<string | null>(() => {});
      return base.read(projectId, path);
    },
  };
}

/** One polish run on a selection of `inputChars` characters, completed (the reply was shown). */
export async function polishRun(t: TestEngine, projectId: string, inputChars = 40) {
  const r = await build(t, { kind: 'skill', skillId: 'polish', projectId, selection: { before: '', text: '字'.repeat(inputChars), after: '' }, message: '润色' });
  expectOk(await t.engine.call('run.complete', { runId: r.runId, status: 'completed' }));
  return r;
}
