import { EngineError } from '../../domain/errors';
import { heuristicSessionSummary } from '../../domain/conversation/session-title';
import {
  assignTurns,
  compareConversation,
  fillTimes,
  stableKey,
  type ImportedConversation,
  type ImportSource,
  type SkipCounts,
} from '../../domain/imports';
import { clearPendingFiles, readPendingFiles, recordPendingFiles } from '../backup/file-journal';
import { carryOut, planFiles, type FilePlan, type FilesReport } from '../backup/import-files';
import type { ImportReading } from '../backup';
import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';
import type { ImportRepo } from '../store/import-repo';
import type { MessageRepo } from '../store/message-repo';
import { readImport, type ImportFileInput } from './read-import';

/**
 * Imports from other apps (issue 14), in calls the caller drives, so it can show progress and nothing
 * else waits long behind it:
 *
 *   preview({ source, files }) ── read + plan against the database (nothing written) ─▶ token + counts
 *   applyStep({ token })       ── one short write transaction: the next conversations ─▶ progress … done
 *   finish({ token })          ── a lorebook's setting files (OPFS / disk), idempotent ─▶ files report
 *   cancel({ token })          ── takes back every step already written (one transaction)
 *
 * All or nothing across steps: each step records what it wrote (import_runs / import_items). A run that
 * is cancelled, or that no step has touched for ABANDONED_MS (the page closed, the process died), is
 * taken back whole. A finished run's conversations are then followed up in the background
 * (follow-up.ts): memories extracted from the person's messages, rolling summaries made.
 */
export interface ConversationCounts {
  incoming: number;
  add: number;
  extend: number;
  same: number;
  changed: number;
  duplicate: number;
  empty: number;
}

export interface ImportPlanPreview {
  token: string;
  source: ImportSource;
  bytes: number;
  conversations: ConversationCounts;
  messages: { incoming: number; add: number; skip: number };
  skipped: SkipCounts;
  skippedFiles: number;
  /** Earliest and latest message of what will be added. */
  range: { from: number; to: number } | null;
  /** The first new conversations' titles, to recognise the file by. */
  titles: string[];
  lorebook: { projectId: string; projectName: string; projectExists: boolean; files: FilesReport } | null;
}

export interface ImportProgress {
  token: string;
  runId: string;
  done: boolean;
  conversations: { done: number; total: number };
  messages: { done: number; total: number };
}

export interface ImportFinish {
  runId: string;
  conversations: number;
  messages: number;
  files: FilesReport | null;
}

interface Planned {
  conversation: ImportedConversation;
  lastAt: number;
}

interface Staged {
  token: string;
  source: ImportSource;
  plan: Planned[];
  totalMessages: number;
  cursor: number;
  written: { conversations: number; messages: number };
  runId: string | null;
  state: 'previewed' | 'running' | 'applied';
  lorebook: { projectId: string; projectName: string; projectExists: boolean; plan: FilePlan } | null;
  stagedAt: number;
}

/** How long a step may write before it lets others in, and at most how many messages. */
export interface ImportTuning {
  stepMs: number;
  stepMessages: number;
  abandonedMs: number;
}

export const DEFAULT_IMPORT_TUNING: ImportTuning = { stepMs: 50, stepMessages: 2000, abandonedMs: 2 * 60_000 };
const STAGE_TTL_MS = 30 * 60_000;
const TITLES_SHOWN = 5;
/** Planning work between two chances for other calls to run. */
const PLAN_SLICE_MS = 12;

export function createImportService(deps: {
  env: Pick<EngineEnv, 'driver' | 'clock' | 'ids' | 'log'>;
  repo: ImportRepo;
  messages: MessageRepo;
  files: ProjectFileStore | undefined;
  tuning?: Partial<ImportTuning>;
}) {
  const { driver, clock, ids, log } = deps.env;
  const { repo } = deps;
  const tuning = { ...DEFAULT_IMPORT_TUNING, ...deps.tuning };
  let staged: Staged | null = null;
  /** The files a preview is reading now (one preview at a time, as `staged`): import.reading answers from it. */
  let reading: { bytesRead: number; totalBytes: number } | null = null;

  function mustGet(token: string): Staged {
    if (staged && staged.state === 'previewed' && clock.now() - staged.stagedAt > STAGE_TTL_MS) staged = null;
    if (!staged || staged.token !== token)
      throw new EngineError('NOT_FOUND', 'No import with that `token` (it finished, was cancelled or replaced by another file). Choose the file again.', {
        fields: ['token'],
      });
    return staged;
  }

  /** Imports nobody drives any more are taken back (the page closed or the process died mid-import). */
  function sweepAbandoned(): number {
    const runs = repo.abandonedRuns(clock.now() - tuning.abandonedMs);
    for (const id of runs) {
      if (staged?.runId === id) staged = null;
      driver.transaction(() => repo.rollback(id));
      log.warn('import.abandoned-rolled-back', { run: id });
    }
    return runs.length;
  }

  /** Async only to let other calls in every few milliseconds (10,000 conversations take a while to plan). */
  async function plan(conversations: ImportedConversation[], now: number) {
    const counts: ConversationCounts = { incoming: conversations.length, add: 0, extend: 0, same: 0, changed: 0, duplicate: 0, empty: 0 };
    const messages = { incoming: 0, add: 0, skip: 0 };
    const planned: Planned[] = [];
    let from = Infinity;
    let to = -Infinity;
    const titles: string[] = [];
    let since = performance.now();
    for (const c of conversations) {
      if (performance.now() - since >= PLAN_SLICE_MS) {
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        since = performance.now();
      }
      messages.incoming += c.messages.length;
      if (c.messages.length === 0) {
        counts.empty++;
        continue;
      }
      const { lastAt } = fillTimes(c, now);
      const turns = repo.sessionTurns(c.id);
      const { outcome, from: k } = compareConversation(turns === null ? null : repo.messagesOf(c.id), c.messages);
      counts[outcome]++;
      const adding = outcome === 'add' || outcome === 'extend' ? c.messages.length - k : 0;
      messages.add += adding;
      messages.skip += c.messages.length - adding;
      if (adding === 0) continue;
      planned.push({ conversation: c, lastAt });
      for (const m of c.messages.slice(k)) {
        from = Math.min(from, m.createdAt as number);
        to = Math.max(to, m.createdAt as number);
      }
      if (outcome === 'add' && titles.length < TITLES_SHOWN) titles.push(c.title || heuristicSessionSummary(c.messages[0]?.content ?? '', '').title);
    }
    return { counts, messages, planned, titles, range: planned.length ? { from, to } : null };
  }

  /** Writes one conversation's new messages (re-checked against the database now, not at the preview). */
  function writeConversation(p: Planned, runId: string): number {
    const c = p.conversation;
    const turns = repo.sessionTurns(c.id);
    const { outcome, from } = compareConversation(turns === null ? null : repo.messagesOf(c.id), c.messages);
    if (outcome !== 'add' && outcome !== 'extend') return 0;
    const now = clock.now();
    if (outcome === 'add') {
      const firstUser = c.messages.find((m) => m.role === 'user')?.content ?? '';
      const firstReply = c.messages.find((m) => m.role === 'assistant')?.content ?? '';
      const auto = heuristicSessionSummary(firstUser || firstReply, firstReply);
      repo.insertSession({
        id: c.id,
        title: c.title || auto.title,
        snippet: auto.snippet,
        createdAt: c.createdAt as number,
        lastActive: p.lastAt,
        // A conversation with a reply has its seed-000 summary (title + snippet) already.
        summarizedAt: firstReply ? now : null,
      });
    }
    const prior = turns ?? 0;
    const { rows, turnCount } = assignTurns(c.messages.slice(from), { turnCount: prior });
    let firstId = 0;
    for (const r of rows) {
      const { message } = deps.messages.insert({ sessionId: c.id, turnNo: r.turnNo, role: r.role, content: r.content, status: 'complete', meta: undefined, createdAt: r.createdAt });
      if (!firstId) firstId = message.id;
    }
    repo.setTurns(c.id, turnCount, p.lastAt);
    repo.addItem({ runId, sessionId: c.id, created: outcome === 'add', priorTurns: prior, firstMessageId: firstId });
    return rows.length;
  }

  function progress(s: Staged): ImportProgress {
    return {
      token: s.token,
      runId: s.runId ?? '',
      done: s.state === 'applied',
      conversations: { done: s.cursor, total: s.plan.length },
      messages: { done: s.written.messages, total: s.totalMessages },
    };
  }

  return {
    sweepAbandoned,
    async preview(input: { source: ImportSource | 'auto'; files: ImportFileInput[]; projectId?: string; projectName?: string }): Promise<ImportPlanPreview> {
      sweepAbandoned();
      // Only an import still being written blocks a new one; one written but never finished (its page
      // closed after the last step) leaves its setting files to the journal, written at the next start.
      if (staged?.state === 'running')
        throw new EngineError('CONFLICT', 'Another import is being written; wait for it to finish or cancel it first.', { fields: ['files'] });
      staged = null;
      // The total is readImport's own: it says it (bytes read 0) before it returns its promise.
      const read0 = { bytesRead: 0, totalBytes: 0 };
      reading = read0;
      const onRead = (bytesRead: number, totalBytes: number): void => {
        read0.bytesRead = bytesRead;
        read0.totalBytes = totalBytes;
      };
      const read = await readImport({ source: input.source, files: input.files, onRead }).finally(() => {
        if (reading === read0) reading = null;
      });
      const now = clock.now();
      const p = await plan(read.conversations, now);
      let lorebook: Staged['lorebook'] = null;
      if (read.lorebook) {
        const projectName = input.projectName?.trim() || read.lorebook.name;
        const projectId = input.projectId ?? `lore-${stableKey(projectName)}`;
        const projectExists = repo.projectExists(projectId);
        if (input.projectId && !projectExists) throw new EngineError('NOT_FOUND', 'No project with that `projectId`.', { fields: ['projectId'] });
        const files = read.lorebook.files.map((f) => ({ projectId, path: f.path, content: f.content }));
        lorebook = { projectId, projectName, projectExists, plan: await planFiles({ store: deps.files, files, mode: 'merge', clearProjects: [] }) };
      }
      const token = `import-${ids()}`;
      staged = {
        token,
        source: read.source,
        plan: p.planned,
        totalMessages: p.messages.add,
        cursor: 0,
        written: { conversations: 0, messages: 0 },
        runId: null,
        state: 'previewed',
        lorebook,
        stagedAt: now,
      };
      log.info('import.previewed', { source: read.source, bytes: read.bytes, conversations: p.counts.incoming, add: p.messages.add });
      return {
        token,
        source: read.source,
        bytes: read.bytes,
        conversations: { ...p.counts, duplicate: read.duplicates },
        messages: p.messages,
        skipped: read.skipped,
        skippedFiles: read.skippedFiles,
        range: p.range,
        titles: p.titles,
        lorebook: lorebook && { projectId: lorebook.projectId, projectName: lorebook.projectName, projectExists: lorebook.projectExists, files: lorebook.plan.report },
      };
    },

    /** Synchronous: runs inside the engine's write transaction (one step = one transaction). */
    applyStep(token: string): ImportProgress {
      const s = mustGet(token);
      if (s.state === 'applied') return progress(s);
      const now = clock.now();
      if (s.runId === null) {
        s.runId = ids();
        repo.startRun({ id: s.runId, source: s.source, now });
        s.state = 'running';
      } else if (repo.runState(s.runId) !== 'running') {
        staged = null;
        throw new EngineError('CONFLICT', 'This import was interrupted and taken back. Nothing of it was kept; import the file again.', { fields: ['token'] });
      }
      const started = performance.now();
      let conversations = 0;
      let messages = 0;
      while (s.cursor < s.plan.length && messages < tuning.stepMessages && performance.now() - started < tuning.stepMs) {
        const n = writeConversation(s.plan[s.cursor] as Planned, s.runId);
        s.cursor++;
        if (n > 0) conversations++;
        messages += n;
      }
      s.written.conversations += conversations;
      s.written.messages += messages;
      repo.touchRun(s.runId, { conversations, messages, now });
      if (s.cursor >= s.plan.length) {
        const lb = s.lorebook;
        if (lb) {
          if (!repo.projectExists(lb.projectId)) repo.createProject({ id: lb.projectId, name: lb.projectName, now });
          recordPendingFiles(driver, { token, report: lb.plan.report, writes: lb.plan.writes, deletes: [] });
        }
        repo.finishRun(s.runId, now);
        s.state = 'applied';
        log.info('import.applied', { source: s.source, conversations: s.written.conversations, messages: s.written.messages });
      }
      return progress(s);
    },

    /** After the last step: the lorebook's files (retried at the next start if a write fails). */
    async finish(token: string): Promise<ImportFinish> {
      const s = mustGet(token);
      if (s.state !== 'applied')
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `token`: the import is not written yet (call import.applyStep until it is done).', { fields: ['token'] });
      let files: FilesReport | null = null;
      if (s.lorebook) {
        const pending = readPendingFiles(driver);
        if (pending?.token === token) {
          await carryOut(deps.files, pending);
          clearPendingFiles(driver, token);
        }
        files = s.lorebook.plan.report;
      }
      staged = null;
      return { runId: s.runId ?? '', conversations: s.written.conversations, messages: s.written.messages, files };
    },

    /** Takes back what the import wrote so far (synchronous: one write transaction). */
    cancel(token: string): { canceled: boolean; conversations: number } {
      if (!staged || staged.token !== token) return { canceled: false, conversations: 0 };
      const s = staged;
      staged = null;
      if (s.runId === null || s.state === 'applied') return { canceled: s.runId === null, conversations: 0 };
      const conversations = repo.rollback(s.runId);
      log.info('import.canceled', { conversations });
      return { canceled: true, conversations };
    },

    /** How far a preview has read the files it was given (the backup page shows it while the preview runs). */
    reading(): ImportReading {
      return reading ? { reading: true, ...reading } : { reading: false, bytesRead: 0, totalBytes: 0 };
    },

    /** The import in progress, if any (a page that reloads can tell it is gone). */
    current(): ImportProgress | null {
      return staged && staged.state !== 'previewed' ? progress(staged) : null;
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
