/**
 * Every engine call's known failure paths, driven against a real engine with data in every table: each
 * answer's code must be one the contract declares for that call (or a common one). The table is keyed
 * by Method, so a new call without an entry here is a compile error (svelte-check runs on tests too).
 */
import { describe, expect, it } from 'vitest';
import { ENGRAM_EXPORT_FORMAT } from '../../domain/backup';
import { fillEveryTable, type Filled } from '../backup/test-fill';
import { createBackupTestEngine, type BackupTestEngine } from '../backup/testing';
import { expectOk } from '../testing';
import { COMMON_ERRORS } from './define';
import { contract, METHODS, type Method } from './contract';

interface Ctx {
  t: BackupTestEngine;
  filled: Filled;
  /** A message of the filled data. */
  messageId: number;
  runId: string;
  ruleId: string;
}

/** Inputs that must fail, one per known failure path; calls that can only refuse bad input list one such input. */
type Paths = (c: Ctx) => Promise<unknown[]> | unknown[];

const MISSING = 'missing-id';
/** A call that takes no input (or only optional input) refuses a field it does not know. */
const strict: Paths = () => [{ unexpected: true }];
const newerExport = () => new Blob([JSON.stringify({ format: ENGRAM_EXPORT_FORMAT, version: 99, tables: {} })]);
const notAnExport = () => new Blob(['[1, 2, 3]']);
const notADatabase = () => new Blob(['x'.repeat(1024)]);

const paths: Record<Method, Paths> = {
  'system.status': strict,
  'settings.get': strict,
  'settings.update': () => [{ patch: { 'memory.rag_top_n': -1 } }],
  'maintenance.optimize': strict,
  'maintenance.ftsMerge': strict,
  'maintenance.integrityCheck': strict,
  'maintenance.reindex': strict,
  'jobs.record': () => [{ job: 'Not Kebab', trigger: 'demand', status: 'ok', startedAt: 0, finishedAt: 0, result: {} }],
  'jobs.history': () => [{ job: 'x' }],
  'session.create': (c) => [{ projectId: MISSING }, { id: c.filled.sessionIds[0] }],
  'session.list': () => [{ limit: 0 }],
  'session.get': () => [{ id: MISSING }],
  'session.update': () => [{ id: MISSING, title: 'x' }],
  'session.delete': () => [{ id: MISSING }],
  'message.append': () => [{ sessionId: MISSING, role: 'user', content: 'x' }],
  'message.list': (c) => [
    { sessionId: MISSING },
    { sessionId: MISSING, beforeId: 1 },
    { sessionId: c.filled.sessionIds[0], afterId: 999_999 },
    { sessionId: c.filled.sessionIds[1], afterId: c.messageId },
    { sessionId: c.filled.sessionIds[0], afterId: 2, beforeId: 5 },
  ],
  'message.get': () => [{ id: 999_999 }],
  'message.update': () => [{ id: 999_999, isCollected: true }],
  'message.delete': () => [{ id: 999_999 }],
  'workingMemory.get': () => [{ sessionId: MISSING }],
  'workingMemory.update': () => [{ sessionId: MISSING, currentTopic: 'x' }],
  'workingMemory.sweep': strict,
  'summary.list': () => [{ sessionId: MISSING }],
  'summary.create': (c) => [
    { sessionId: MISSING, fromTurn: 1, toTurn: 2 },
    { sessionId: c.filled.sessionIds[0], fromTurn: 3, toTurn: 1 },
    { sessionId: c.filled.sessionIds[0], fromTurn: 50, toTurn: 60 },
  ],
  'summary.roll': () => [{ sessionId: MISSING }, { unexpected: true }],
  'summary.replace': () => [{ id: 999_999, summary: 'x', keySymbols: [], keyDecisions: [] }],
  'summary.turns': () => [{ id: 999_999 }],
  'summary.pending': strict,
  'recall.search': () => [{ query: '' }],
  'search.messages': () => [{ query: '' }],
  'cleanup.run': () => [{ sessionId: MISSING }, { all: true }],
  'memory.list': () => [{ status: 'gone' }],
  'memory.get': () => [{ id: MISSING }],
  'memory.getMany': () => [{ ids: 'all' }],
  'memory.create': () => [{ content: 'x', scope: 'project', projectId: MISSING }, { content: 'x', scope: 'project' }],
  'memory.update': (c) => [{ id: MISSING, content: 'x' }, { id: c.filled.memoryIds[1], content: 'y', expectedVersion: 1 }],
  'memory.delete': () => [{ id: MISSING }],
  'memory.clear': () => [{}],
  'memory.undo': () => [{ id: MISSING }],
  'memory.restore': (c) => [{ id: MISSING }, { id: c.filled.memoryIds[1], version: 99 }],
  'memory.retrieve': () => [{ query: 'x', topN: -1 }],
  'memory.markAccessed': () => [{ ids: [] }],
  'memory.search': () => [{ keyword: 'x', fromMs: 10, toMs: 1 }],
  'memory.extract': (c) => [
    { sessionId: MISSING, userMessageId: c.messageId },
    { sessionId: c.filled.sessionIds[0], userMessageId: 999_999 },
    { sessionId: c.filled.sessionIds[1], userMessageId: c.messageId },
  ],
  'memory.evict': strict,
  'profile.get': strict,
  'profile.update': () => [{ content: 'x', expectedVersion: 0 }],
  'profile.history': strict,
  'profile.undo': () => [{ steps: 2 }],
  'skill.list': strict,
  'skill.validate': () => [{ contextRules: '{not json' }, { contextRules: { layers: 'all' } }],
  'context.build': (c) => [
    { kind: 'chat', sessionId: MISSING, message: 'x', locale: 'en' },
    { kind: 'skill', skillId: 'no-such-skill', message: 'x', locale: 'en' },
    { kind: 'skill', skillId: 'continue', documentId: MISSING, message: 'x', locale: 'en' },
    { kind: 'skill', skillId: 'continue', projectId: MISSING, message: 'x', locale: 'en' },
    { kind: 'skill', message: 'x', locale: 'en' },
  ],
  'context.cancel': () => [{ requestId: 'short' }],
  'run.complete': (c) => [{ runId: MISSING, status: 'completed' }, { runId: c.runId, status: 'completed', messageId: 999_999 }],
  'run.get': () => [{ runId: MISSING }],
  'run.list': () => [{ limit: 0 }],
  'run.forMessage': () => [{ messageId: 999_999 }],
  'run.trace': () => [{ runId: MISSING }],
  'run.traceFeedback': (c) => [{ runId: MISSING, verdict: 'incorrect' }, { runId: c.runId, verdict: 'incorrect', referenceId: 'ghost' }],
  'run.sweep': strict,
  'feedback.record': () => [{ runId: MISSING, action: 'accept' }],
  'feedback.list': () => [{ limit: 0 }],
  'rules.list': () => [{ scope: 'team' }],
  'rules.add': (c) => [
    { rule: 'x', scope: 'project', projectId: MISSING },
    { rule: 'x', scope: 'project' },
    { rule: 'again', key: 'style.dialogue', scope: 'project', projectId: c.filled.projectId },
  ],
  'rules.update': () => [{ id: MISSING, rule: 'x' }],
  'rules.confirm': () => [{ id: MISSING }],
  'rules.delete': () => [{ id: MISSING }],
  'rules.promote': (c) => [{ id: MISSING }, { id: c.ruleId }],
  'project.create': () => [{ name: '   ' }],
  'project.list': strict,
  'project.get': () => [{ id: MISSING }],
  'project.rename': () => [{ id: MISSING, name: 'x' }],
  'project.delete': () => [{ id: MISSING }],
  'projectFile.list': (c) => [{ projectId: MISSING }, { projectId: c.filled.projectId, folder: '../..' }],
  'projectFile.read': (c) => [{ projectId: MISSING, path: '.engram/a.md' }, { projectId: c.filled.projectId, path: '.engram/none.md' }, { projectId: c.filled.projectId, path: '/etc/passwd' }],
  'projectFile.write': (c) => [{ projectId: MISSING, path: '.engram/a.md', content: 'x' }, { projectId: c.filled.projectId, path: '../a.md', content: 'x' }],
  'projectFile.delete': (c) => [{ projectId: MISSING, path: '.engram/a.md' }, { projectId: c.filled.projectId, path: '../a.md' }],
  'document.create': () => [{ projectId: MISSING }],
  'document.list': () => [{ projectId: MISSING }],
  'document.get': () => [{ id: MISSING }],
  'document.update': () => [{ id: MISSING, title: 'x' }],
  'document.delete': () => [{ id: MISSING }],
  'graph.addEntity': () => [{ projectId: MISSING, type: 'character', name: 'x' }],
  'graph.addFact': (c) => [
    { projectId: MISSING, subject: MISSING, predicate: 'p', object: 'o' },
    { projectId: c.filled.projectId, subject: MISSING, predicate: 'p', object: 'o' },
  ],
  'graph.check': () => [{ projectId: MISSING, names: ['x'] }],
  'episode.record': (c) => [
    { runId: MISSING, candidates: ['x'], selectedIndex: 0 },
    { runId: MISSING, undo: true },
    { runId: c.runId, candidates: ['x'], selectedIndex: 0 },
    { skillId: 'no-such-skill', candidates: ['x'], selectedIndex: 0 },
    { skillId: 'continue', candidates: ['x'], selectedIndex: 3 },
    { skillId: 'continue', projectId: MISSING, candidates: ['x'], selectedIndex: 0 },
  ],
  'episode.query': () => [{ projectId: MISSING, text: 'x' }, { text: 'x', limit: 9 }],
  'episode.list': () => [{ limit: 0 }],
  'episode.get': () => [{ id: MISSING }],
  'episode.getMany': () => [{ ids: 'all' }],
  'writingMemory.get': () => [{ documentId: MISSING }, { documentId: '' }],
  'writingMemory.end': () => [{ documentId: '' }],
  'writingMemory.sweep': strict,
  'run.learning': (c) => [{ runId: MISSING }, { runId: c.runId }],
  'distill.status': strict,
  'distill.begin': () => [{ trigger: 'whenever' }],
  'distill.apply': () => [{ distillId: MISSING, rules: [], refresh: [] }],
  'distill.fail': () => [{ distillId: MISSING, errorCode: 'TIMEOUT' }, { distillId: MISSING, errorCode: 'not a code' }],
  'rules.history': () => [{ limit: 0 }],
  'rules.conflicts': () => [{ projectId: 5 }],
  'rules.resolveConflict': () => [{ conflictId: MISSING, keepRuleId: 'x' }],
  'memory.clearProject': (c) => [{ projectId: MISSING, confirm: true }, { projectId: c.filled.projectId }],
  'memory.clearAll': () => [{}, { confirm: false, includeConversations: true }],
  'memory.clearLog': () => [{ limit: 0 }],
  'backup.exportBegin': () => [{ scope: { kind: 'project', id: MISSING } }, { scope: { kind: 'session', id: MISSING } }],
  'backup.exportChunk': () => [{ exportId: MISSING }],
  'backup.exportCancel': () => [{ exportId: '' }],
  'backup.importPreview': () => [{ token: MISSING }, { file: notAnExport() }, { file: newerExport() }, { file: new Blob([]) }],
  'backup.importApply': () => [{ token: MISSING, mode: 'merge' }],
  'backup.importFiles': async (c) => {
    const staged = expectOk(await c.t.engine.call('backup.importPreview', { file: new Blob([JSON.stringify(minimalExport())]) }));
    return [{ token: MISSING }, { token: staged.token }];
  },
  'backup.importDiscard': () => [{ token: '' }],
  'backup.exportDbFile': strict,
  'backup.checkDbFile': () => [{ file: notADatabase() }, { file: new Blob([]) }],
  'backup.importDbFile': () => [{ file: notADatabase(), confirm: true }],
  // storage (issue 13)
  'storage.usage': strict,
  'storage.reclaim': strict,
  'backup.importStep': () => [{ token: 'nope', mode: 'merge' }],
  // issue 14: imports from other apps, Markdown exports
  'import.preview': () => [
    { files: [] },
    { source: 'chatgpt', files: [{ name: 'conversations.json', file: new Blob(['{"not":"an array"}']) }] },
    { source: 'claude', files: [{ name: 'conversations.json', file: new Blob(['[{"mapping":{},"current_node":null}]']) }] },
    { source: 'lorebook', projectId: MISSING, files: [{ name: 'world.json', file: new Blob(['{"entries":{"0":{"content":"x"}}}']) }] },
  ],
  'import.applyStep': () => [{ token: MISSING }],
  'import.finish': () => [{ token: MISSING }],
  'import.cancel': () => [{ token: '' }],
  'import.followUp': () => [{ limit: 0 }],
  'import.status': strict,
  'import.reading': strict,
  'export.markdown': () => [{ scope: { kind: 'session', id: MISSING } }, { scope: { kind: 'project', id: MISSING } }, { scope: { kind: 'all' } }],
  'embeddings.configure': () => [{ endpoint: { baseUrl: 'ftp://x', apiKey: '', model: 'm', timeoutMs: 5000 } }, { endpoint: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: '', model: '', timeoutMs: 5000 } }],
  'embeddings.prepare': () => [{ text: '' }, { text: 'q', as: 'selection' }, { text: 'q', extra: 1 }],
  'embeddings.status': strict,
  'embeddings.pending': () => [{ model: '' }, { model: 'm', limit: 0 }],
  'embeddings.store': () => [{ model: 'm', items: [] }, { model: 'm', items: [{ kind: 'turn', id: 1, vector: [] }] }],
  'system.erase': () => [{ confirm: false }, {}],
  // turns (issue 16)
  'turn.prepare': (c) => [
    { sessionId: MISSING, content: 'x', locale: 'en' },
    { content: 'x', retryOf: c.messageId, locale: 'en' },
    { retryOf: 999_999, locale: 'en' },
    { projectId: MISSING, content: 'x', locale: 'en' },
  ],
  'turn.finish': (c) => [{ runId: MISSING, outcome: 'completed' }, { runId: c.runId, outcome: 'completed', userMessageId: 999_999 }],
  'turn.afterReplyPending': () => [{ limit: 0 }],
  'turn.afterReplyDone': () => [{ runId: '' }],
  'session.getMany': () => [{ ids: 'x' }],
  // issue 19: memory that forgets on purpose
  'lifecycle.status': strict,
  'lifecycle.run': () => [{ phases: [] }, { phases: ['shrink'] }],
  'lifecycle.ledger': () => [{ limit: 0 }],
  'lifecycle.keep': () => [{ itemType: 'episode', itemId: MISSING }, { itemType: 'memory', itemId: 'x' }],
  'lifecycle.summaryCandidates': () => [{ limit: 0 }, { limit: 51 }, { after: -1 }],
  'lifecycle.compressWith': () => [{ items: [{ id: 'e', seen: '1||0', summary: '   ' }] }, { items: [{ id: 'e', summary: 'x' }] }],
  'backup.importProgress': () => [{ token: 'import-missing' }],
  'backup.importReading': strict,
};

function minimalExport() {
  return { format: ENGRAM_EXPORT_FORMAT, version: 1, exportedAt: new Date(0).toISOString(), app: { name: 'engram', version: '0', schemaVersion: 1 }, scope: { kind: 'all' } };
}

async function setup(): Promise<Ctx> {
  const t = await createBackupTestEngine();
  const filled = await fillEveryTable(t);
  const messages = expectOk(await t.engine.call('message.list', { sessionId: filled.sessionIds[0] as string }));
  const rules = expectOk(await t.engine.call('rules.list', {}));
  const global = rules.find((r) => r.scope === 'global');
  return {
    t,
    filled,
    messageId: (messages[0] as { id: number }).id,
    runId: 'run-chat',
    ruleId: (global as { id: string }).id,
  };
}

describe('the contract declares every error code a call returns (ARCHITECTURE §8)', () => {
  it('a failure path for every call of the contract', () => {
    expect(Object.keys(paths).sort()).toEqual([...METHODS].sort());
  });

  it.each(METHODS.map((m) => [m]))('%s: each failure is a declared code', async (method) => {
    const c = await setup();
    const declared: readonly string[] = [...COMMON_ERRORS, ...contract[method].errors];
    const inputs = await paths[method](c);
    for (const input of inputs) {
      const res = await c.t.engine.handle({ method, input, ...(contract[method].write ? { opId: `op-${method}-${Math.random()}` } : {}) });
      expect(res.ok, `${method} accepted ${JSON.stringify(input)}`).toBe(false);
      if (res.ok) continue;
      expect(declared, `${method} answered ${res.error.code} for ${JSON.stringify(input)}`).toContain(res.error.code);
    }
    expect(c.t.log.lines.filter((l) => l.event === 'engine.undeclared-error')).toEqual([]);
    expect(c.t.log.lines.filter((l) => l.event === 'engine.internal')).toEqual([]);
  });
});
