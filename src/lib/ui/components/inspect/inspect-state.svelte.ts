import type { IpcError } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import type { MemoryRecord } from '../../../domain/memory';
import type { GenerationTrace, RunDetail, RunRecord, RunSummary, SemanticRule } from '../../../engine/context/types';
import { memoryIdsWithoutText } from './item-view';
import { comparePrefixes, sha256Hex, stablePrefixOf, type PrefixComparison } from './prefix';
import type { Episode, RunLearning } from '../../../engine/episodes/types';

/**
 * The inspector (seed 004 "可查看注入了什么", 003 "为什么这样写？"): recent runs, one run's record and
 * trace, the user's verdict on the trace, and a comparison with another run's stable prefix.
 */
export class InspectState {
  runs = $state.raw<RunSummary[]>([]);
  listLoaded = $state(false);
  record = $state.raw<RunDetail | null>(null);
  /** 000 主动记忆搜索: the memories the model found with search_memories during the run (those still stored). */
  toolMemories = $state.raw<MemoryRecord[]>([]);
  /** Issue 15: the words of kept memories the run stored without text (older runs, pruned ones), by item id. */
  memoryTexts = $state.raw<ReadonlyMap<string, string>>(new Map());
  /** Whether the prefix rebuilt from the stored layers hashes to the stored hash (null while checking). */
  prefixVerified = $state<boolean | null>(null);
  trace = $state.raw<GenerationTrace | null>(null);
  traceMissing = $state(false);
  /** The rules of the run's scope, for the trace's preference references (text, confidence). */
  rules = $state.raw<SemanticRule[]>([]);
  /** The rule the last "Wrong" was about, after the engine applied it. */
  lastVerdictRule = $state.raw<SemanticRule | null>(null);
  notFound = $state(false);
  error = $state.raw<IpcError | null>(null);
  /** 003 三层记忆: what a skill run took from the writing memory (working memory, recalled episodes with why). */
  learning = $state.raw<RunLearning | null>(null);
  /** The recalled episodes that still exist, by id. */
  episodes = $state.raw<Record<string, Episode>>({});
  compareId = $state<string | null>(null);
  comparison = $state.raw<(PrefixComparison & { other: RunSummary }) | null>(null);
  #engine: EngineCaller;
  #seq = 0;

  constructor(deps: { engine: EngineCaller }) {
    this.#engine = deps.engine;
  }

  async loadList(limit = 50): Promise<void> {
    const res = await this.#engine.call('run.list', { limit });
    if (!res.ok) return void (this.error = res.error);
    this.runs = res.data;
    this.listLoaded = true;
  }

  /** Runs the compare picker offers: same kind, not this one. */
  get candidates(): RunSummary[] {
    const r = this.record;
    return r ? this.runs.filter((x) => x.kind === r.kind && x.id !== r.id) : [];
  }

  async open(runId: string): Promise<void> {
    const seq = ++this.#seq;
    this.notFound = false;
    this.error = null;
    this.comparison = null;
    this.compareId = null;
    this.lastVerdictRule = null;
    this.prefixVerified = null;
    const res = await this.#engine.call('run.get', { runId });
    if (seq !== this.#seq) return;
    if (!res.ok) {
      this.record = null;
      if (res.error.code === 'NOT_FOUND') this.notFound = true;
      else this.error = res.error;
      return;
    }
    this.record = res.data;
    this.toolMemories = [];
    this.memoryTexts = new Map();
    this.learning = null;
    this.episodes = {};
    const expected = res.data.stablePrefixHash;
    await Promise.all([
      this.#loadTrace(res.data),
      this.#loadToolMemories(res.data, seq),
      this.#loadMemoryTexts(res.data, seq),
      this.#loadLearning(res.data, seq),
      this.listLoaded ? Promise.resolve() : this.loadList(),
      sha256Hex(stablePrefixOf(res.data.layers)).then((h) => seq === this.#seq && (this.prefixVerified = h === expected)),
    ]);
  }

  /** 003 memory:trace:feedback. "Wrong" about a learned rule lowers its confidence (engine: TRACE_PENALTY). */
  async verdict(verdict: 'correct' | 'incorrect', referenceId?: string): Promise<void> {
    const run = this.record;
    if (!run) return;
    const res = await this.#engine.call('run.traceFeedback', { runId: run.id, verdict, ...(referenceId ? { referenceId } : {}) });
    if (!res.ok) return void (this.error = res.error);
    this.trace = res.data;
    await this.#loadRules(run);
    const ruleId = referenceId?.startsWith('preference:') ? referenceId.slice('preference:'.length) : null;
    this.lastVerdictRule = ruleId ? (this.rules.find((r) => r.id === ruleId) ?? null) : null;
  }

  async compare(otherId: string | null): Promise<void> {
    this.compareId = otherId;
    this.comparison = null;
    const run = this.record;
    if (!run || !otherId) return;
    const res = await this.#engine.call('run.get', { runId: otherId });
    if (!res.ok) return void (this.error = res.error);
    if (this.compareId !== otherId) return;
    const { layers: _l, memoryIds: _m, toolMemoryIds: _t, messages: _x, messagesPruned: _p, ...other } = res.data;
    // The stored hashes decide "same"; the rebuilt prefixes say where they part.
    this.comparison = { ...comparePrefixes(run.layers, res.data.layers), same: run.stablePrefixHash === other.stablePrefixHash, other };
  }

  async #loadToolMemories(run: RunDetail, seq: number): Promise<void> {
    if (run.toolMemoryIds.length === 0) return;
    const res = await this.#engine.call('memory.getMany', { ids: run.toolMemoryIds.slice(0, 100) });
    if (res.ok && seq === this.#seq) this.toolMemories = res.data;
  }

  async #loadMemoryTexts(run: RunDetail, seq: number): Promise<void> {
    const ids = memoryIdsWithoutText(run.layers).slice(0, 100);
    if (ids.length === 0) return;
    const res = await this.#engine.call('memory.getMany', { ids });
    if (res.ok && seq === this.#seq) this.memoryTexts = new Map(res.data.map((m) => [`memory:${m.id}`, m.content]));
  }

  async #loadLearning(run: RunRecord, seq: number): Promise<void> {
    if (run.kind !== 'skill') return;
    const res = await this.#engine.call('run.learning', { runId: run.id });
    if (!res.ok || seq !== this.#seq) return;
    this.learning = res.data;
    const ids = res.data.episodes.map((e) => e.id);
    if (ids.length === 0) return;
    const found = await this.#engine.call('episode.getMany', { ids });
    if (found.ok && seq === this.#seq) this.episodes = Object.fromEntries(found.data.map((e) => [e.id, e]));
  }

  async #loadTrace(run: RunRecord): Promise<void> {
    const res = await this.#engine.call('run.trace', { runId: run.id });
    this.trace = res.ok ? res.data : null;
    this.traceMissing = !res.ok && res.error.code === 'NOT_FOUND';
    if (res.ok && res.data.memoryReferences.some((r) => r.type === 'semantic')) await this.#loadRules(run);
  }

  async #loadRules(run: RunRecord): Promise<void> {
    const res = await this.#engine.call('rules.list', run.projectId ? { projectId: run.projectId } : {});
    if (res.ok) this.rules = res.data;
  }
}
