/**
 * Test data in every exportable table, written the way the app writes it (engine calls, so the FTS
 * and symbol rows come from the repositories), in Chinese and English, with JSON values, memory
 * history, profile versions (an undo among them), summaries, settings and project files. Context runs,
 * feedback and traces are rows a model conversation would leave; they are inserted directly.
 */
import { expectOk } from '../testing';
import type { BackupTestEngine } from './testing';

export interface Filled {
  projectId: string;
  otherProjectId: string;
  sessionIds: string[];
  memoryIds: string[];
}

export async function fillEveryTable(t: BackupTestEngine, tag = ''): Promise<Filled> {
  const { engine, clock, driver } = t;
  const step = () => clock.advance(60_000);
  const project = expectOk(await engine.call('project.create', { name: `小说《长夜》${tag}` }));
  const other = expectOk(await engine.call('project.create', { name: `Notes ${tag}` }));
  const s1 = expectOk(await engine.call('session.create', { title: `重构 OrderService ${tag}` }));
  const s2 = expectOk(await engine.call('session.create', { projectId: project.id, title: `第三章 ${tag}` }));
  const s3 = expectOk(await engine.call('session.create', { projectId: other.id }));
  const turns: [string, string][] = [
    ['我喜欢用 Python 写代码，请看 src/service.ts 里的 processOrder 函数', '好的，processOrder 在 OrderService 中处理支付。'],
    ['Why does getUserById throw a TypeError?', 'Because `config` is undefined when the cache misses.'],
    ['把 PaymentHandler 改成用互斥锁', '已使用 mutex 保护关键区域，并添加重试机制。'],
  ];
  const messageIds: number[] = [];
  for (const sessionId of [s1.id, s2.id]) {
    for (const [user, reply] of turns) {
      step();
      const u = expectOk(await engine.call('message.append', { sessionId, role: 'user', content: `${user} ${tag}` }));
      messageIds.push(u.message.id);
      step();
      expectOk(await engine.call('message.append', { sessionId, role: 'assistant', content: reply, meta: { model: 'qwen2.5', memoryIds: [] } }));
    }
  }
  expectOk(await engine.call('message.append', { sessionId: s3.id, role: 'user', content: 'A note with "quotes", \\ backslashes and emoji 🦊' }));
  expectOk(await engine.call('message.update', { id: messageIds[0] as number, isCollected: true }));
  expectOk(await engine.call('session.update', { id: s1.id, isCollected: true }));
  expectOk(await engine.call('summary.create', { sessionId: s1.id, fromTurn: 1, toTurn: 2 }));

  step();
  const m1 = expectOk(await engine.call('memory.create', { content: `用户喜欢用 Python 写代码${tag}`, category: 'preference', tags: ['编程', 'python'] }));
  const m2 = expectOk(
    await engine.call('memory.create', {
      content: `The user's timezone is Asia/Shanghai${tag}`,
      key: 'fact.timezone',
      value: { tz: 'Asia/Shanghai', offset: 8, dst: false, notes: ['no DST', null] },
      tags: ['time'],
      confidence: 0.9,
    }),
  );
  const m3 = expectOk(
    await engine.call('memory.create', { content: `主角林夜怕水${tag}`, scope: 'project', projectId: project.id, category: 'fact', importance: 0.8 }),
  );
  step();
  expectOk(await engine.call('memory.update', { id: m2.id, content: `The user's timezone is UTC+8${tag}`, confidence: 0.95 }));
  expectOk(await engine.call('memory.markAccessed', { ids: [m1.id, m2.id] }));

  step();
  expectOk(await engine.call('profile.update', { content: `简洁，偏好中文回答。${tag}` }));
  step();
  expectOk(await engine.call('profile.update', { content: `Concise; answers in Chinese; writes Python.${tag}` }));
  step();
  expectOk(await engine.call('profile.undo', {}));
  expectOk(await engine.call('settings.update', { patch: { 'memory.rag_top_n': 7, 'chat.summary_block': 4, MEMORY_EVICTION_THRESHOLD: 500 } }));

  const doc = expectOk(await engine.call('document.create', { projectId: project.id, title: '第一章', content: '夜色很深。林夜站在河边，没有动。' }));
  expectOk(await engine.call('rules.add', { rule: '对话用短句', category: 'style', key: 'style.dialogue', scope: 'project', projectId: project.id }));
  expectOk(await engine.call('rules.add', { rule: 'Prefer active voice', category: 'style' }));
  const hero = expectOk(await engine.call('graph.addEntity', { projectId: project.id, type: 'character', name: '林夜', aliases: ['小夜'] }));
  expectOk(
    await engine.call('graph.addFact', {
      projectId: project.id,
      subject: hero.id,
      predicate: 'fears',
      object: '水',
      valid: { from: { chapter: 1, scene: 0 }, to: null },
      evidence: [{ ref: 'doc:chapter-1', at: { chapter: 1, scene: 2 } }],
    }),
  );
  expectOk(await engine.call('projectFile.write', { projectId: project.id, path: '.engram/characters/林夜.md', content: '# 林夜\n怕水。' }));
  expectOk(await engine.call('projectFile.write', { projectId: project.id, path: '.engram/style/guide.md', content: 'Short sentences.' }));

  // Writing memory (issue 17): a skill run on the chapter leaves its learning row, its episode (and event),
  // two contradicting rules open a conflict, every rule change is in the history.
  const built = expectOk(
    await engine.call('context.build', { kind: 'skill', skillId: 'continue', documentId: doc.id, message: `写得紧凑些${tag}`, typed: true, selection: { before: '夜色很深。', text: '林夜站在河边，没有动。', after: '' }, locale: 'zh-CN' }),
  );
  expectOk(await engine.call('run.complete', { runId: built.runId, status: 'completed' }));
  expectOk(await engine.call('episode.record', { runId: built.runId, candidates: ['他转身走了。', `他在河边站了很久，直到天亮${tag}。`], selectedIndex: 0, finalText: '他转身走开了。', explicit: '短一点更好' }));
  expectOk(await engine.call('rules.add', { rule: `偏好长句${tag}`, category: 'pacing', scope: 'project', projectId: project.id }));
  expectOk(await engine.call('rules.add', { rule: `偏好短句${tag}`, category: 'pacing', scope: 'project', projectId: project.id }));

  // The forgetting ledger (issue 19): an episode of the project that faded, a global rule the user kept.
  driver.run(
    `INSERT INTO forgetting_ledger (item_type, item_id, project_id, action, reason, decay, text, created_at, kept_at)
     VALUES ('episode', ?, ?, 'faded', 'decay', 0.25, ?, ?, NULL), ('rule', ?, NULL, 'faded', 'decay', 0.2, ?, ?, ?)`,
    [`ep-gone${tag}`, project.id, `动作 · 续写${tag}`, clock.now(), `rule-kept${tag}`, `Prefer short sentences${tag}`, clock.now(), clock.now() + 1],
  );
  insertRun(driver, { id: `run-chat${tag}`, sessionId: s1.id, messageId: messageIds[1] ?? null, projectId: null, documentId: null, at: clock.now() });
  insertRun(driver, { id: `run-skill${tag}`, sessionId: null, messageId: null, projectId: project.id, documentId: doc.id, at: clock.now() });
  return { projectId: project.id, otherProjectId: other.id, sessionIds: [s1.id, s2.id, s3.id], memoryIds: [m1.id, m2.id, m3.id] };
}

function insertRun(
  driver: BackupTestEngine['driver'],
  r: { id: string; sessionId: string | null; messageId: number | null; projectId: string | null; documentId: string | null; at: number },
): void {
  driver.run(
    `INSERT INTO context_runs (id, kind, skill_id, session_id, message_id, project_id, document_id, stable_prefix_hash, status, created_at,
       finished_at, layers, memory_ids, total_tokens, memory_degraded, input_chars, messages)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'completed', ?, ?, ?, ?, ?, 0, ?, ?)`,
    [
      r.id,
      r.documentId ? 'skill' : 'chat',
      r.documentId ? 'continue' : 'chat',
      r.sessionId,
      r.messageId,
      r.projectId,
      r.documentId,
      'a'.repeat(64),
      r.at,
      r.at + 900,
      JSON.stringify([{ id: 'L0', tokens: 120, budget: 800, status: 'ok', sources: [{ type: 'rule', id: 'sys' }] }]),
      JSON.stringify([]),
      1234,
      42,
      JSON.stringify([{ role: 'system', content: '你是写作助手' }, { role: 'user', content: '继续写' }]),
    ],
  );
  driver.run(
    `INSERT INTO feedback_events (id, run_id, skill_id, project_id, action, sample_refs, edit_distance, features, created_at)
     VALUES (?, ?, 'continue', ?, 'partial', ?, 0.25, ?, ?)`,
    [`fb-${r.id}`, r.id, r.projectId, JSON.stringify([{ kind: 'output', runId: r.id }]), JSON.stringify({ lengthRatio: 0.8 }), r.at + 1000],
  );
  driver.run("INSERT INTO generation_traces (run_id, refs, verdict, verdict_at) VALUES (?, ?, 'correct', ?)", [
    r.id,
    JSON.stringify([{ type: 'memory', id: 'm', layer: 'L4', weight: 0.5 }]),
    r.at + 2000,
  ]);
}
