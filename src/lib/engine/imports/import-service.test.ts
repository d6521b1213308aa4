import { describe, expect, it } from 'vitest';
import { expectOk, createTestEngine, T0 } from '../testing';
import { driveImport } from './drive';
import { fixtureFile, fixtureFolder, importAll, textFile } from './testing';
import { ST_CHAT } from '../../domain/imports/testing';

const chatgpt = () => ({ source: 'chatgpt' as const, files: [fixtureFile('chatgpt/conversations.json')] });

describe('import from ChatGPT (issue 14)', () => {
  it('previews what it will add without writing, then adds it with the source’s times and titles', async () => {
    const { engine } = await createTestEngine();
    const preview = expectOk(await engine.call('import.preview', chatgpt()));
    expect(preview).toMatchObject({
      source: 'chatgpt',
      conversations: { incoming: 2, add: 2, extend: 0, same: 0, changed: 0 },
      messages: { incoming: 6, add: 6, skip: 0 },
      skipped: { system: 1, tool: 2, branch: 1 },
      titles: ['Sourdough starter rescue', 'Naming a lighthouse keeper'],
      range: { from: 1736935260000, to: 1738000020000 },
    });
    expect(expectOk(await engine.call('session.list', {})).total).toBe(0);

    const outcome = await driveImport({ engine, preview });
    expect(outcome).toMatchObject({ kind: 'done', result: { conversations: 2, messages: 6, files: null } });
    const s = expectOk(await engine.call('session.get', { id: 'chatgpt-6789a1b2-0000-4000-8000-00000000c0de' }));
    expect(s).toMatchObject({ title: 'Sourdough starter rescue', createdAt: 1736935200123, lastActive: 1736935520000, turnCount: 2 });
    const messages = expectOk(await engine.call('message.list', { sessionId: s.id }));
    expect(messages.map((m) => [m.turnNo, m.role, m.createdAt])).toEqual([
      [1, 'user', 1736935260000],
      [1, 'assistant', 1736935275500],
      [2, 'user', 1736935500000],
      [2, 'assistant', 1736935520000],
    ]);
  });

  it('imported history is searchable at once (Recall page search and 002 recall)', async () => {
    const { engine } = await createTestEngine();
    await importAll(engine, chatgpt());
    const hits = expectOk(await engine.call('search.messages', { query: 'marmalade' }));
    expect(hits.items.map((h) => h.message.sessionId)).toEqual(['chatgpt-6789a1b2-0000-4000-8000-00000000c0de']);
    const recall = expectOk(await engine.call('recall.search', { query: 'lighthouse keeper names' }));
    expect(recall.results.some((r) => r.conversationId === 'chatgpt-6789a1b2-0000-4000-8000-0000000beac0')).toBe(true);
  });

  it('a second run of the same file adds nothing', async () => {
    const { engine } = await createTestEngine();
    await importAll(engine, chatgpt());
    const { preview, result } = await importAll(engine, chatgpt());
    expect(preview.conversations).toMatchObject({ add: 0, same: 2 });
    expect(preview.messages).toMatchObject({ add: 0, skip: 6 });
    expect(result).toMatchObject({ conversations: 0, messages: 0 });
    expect(expectOk(await engine.call('search.messages', { query: 'marmalade' })).total).toBe(1);
  });

  it('a conversation that went on since is extended; one edited here is kept as it is', async () => {
    const { engine } = await createTestEngine();
    await importAll(engine, chatgpt());
    const [first] = expectOk(await engine.call('message.list', { sessionId: 'chatgpt-6789a1b2-0000-4000-8000-0000000beac0' }));
    expectOk(await engine.call('message.update', { id: first!.id, content: 'I prefer short names, edited here.' }));

    const raw = JSON.parse(await fixtureFile('chatgpt/conversations.json').file.text());
    raw[0].mapping.n6.children = ['n7'];
    raw[0].mapping.n7 = {
      id: 'n7',
      parent: 'n6',
      children: [],
      message: { id: 'n7', author: { role: 'user' }, create_time: 1736936000, content: { content_type: 'text', parts: ['And for rye flour?'] }, recipient: 'all' },
    };
    raw[0].current_node = 'n7';
    const { preview } = await importAll(engine, { source: 'chatgpt', files: [textFile('conversations.json', JSON.stringify(raw))] });
    expect(preview.conversations).toMatchObject({ extend: 1, changed: 1, add: 0 });
    expect(preview.messages.add).toBe(1);
    const s = expectOk(await engine.call('session.get', { id: 'chatgpt-6789a1b2-0000-4000-8000-00000000c0de' }));
    expect(s).toMatchObject({ turnCount: 3, lastActive: 1736936000000 });
    const kept = expectOk(await engine.call('message.get', { id: first!.id }));
    expect(kept.content).toBe('I prefer short names, edited here.');
  });

  it('a broken conversation anywhere in the file refuses the whole file, naming where', async () => {
    const { engine } = await createTestEngine();
    const raw = JSON.parse(await fixtureFile('chatgpt/conversations.json').file.text());
    raw[1].mapping = 'private text';
    const res = await engine.call('import.preview', { source: 'chatgpt', files: [textFile('conversations.json', JSON.stringify(raw))] });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.code).toBe('INVALID_ARGUMENT');
      expect(res.error.message).toContain('`conversations[1].mapping`');
      expect(res.error.message).not.toContain('private');
    }
    expect(expectOk(await engine.call('session.list', {})).total).toBe(0);
  });

  it('a file that is another app’s says so', async () => {
    const { engine } = await createTestEngine();
    const res = await engine.call('import.preview', { source: 'claude', files: [fixtureFile('chatgpt/conversations.json')] });
    expect(res.ok || res.error.message).toMatch(/looks like a ChatGPT export/);
    const backup = await engine.call('import.preview', { files: [textFile('b.json', '{"format":"engram-export","version":2}')] });
    expect(backup.ok || backup.error.message).toMatch(/Engram backup/);
  });
});

describe('an import is all or nothing across its steps', () => {
  it('steps report progress; cancel takes back every step already written', async () => {
    const { engine } = await createTestEngine({ imports: { stepMessages: 1 } });
    const preview = expectOk(await engine.call('import.preview', chatgpt()));
    const first = expectOk(await engine.call('import.applyStep', { token: preview.token }));
    expect(first).toMatchObject({ done: false, conversations: { done: 1, total: 2 }, messages: { done: 4, total: 6 } });
    expect(expectOk(await engine.call('session.list', {})).total).toBe(1);
    expect(expectOk(await engine.call('import.cancel', { token: preview.token }))).toEqual({ canceled: true, conversations: 1 });
    expect(expectOk(await engine.call('session.list', {})).total).toBe(0);
    expect(expectOk(await engine.call('search.messages', { query: 'marmalade' })).total).toBe(0);
    expect((await engine.call('import.applyStep', { token: preview.token })).ok).toBe(false);
  });

  it('an extension that is taken back leaves the conversation as it was', async () => {
    const { engine } = await createTestEngine({ imports: { stepMessages: 1 } });
    await importAll(engine, { source: 'logs', files: [textFile('a.txt', 'user: one\nassistant: two')] });
    const more = [textFile('a.txt', 'user: one\nassistant: two\nuser: three\nassistant: four'), textFile('b.txt', 'user: new')];
    const preview = expectOk(await engine.call('import.preview', { source: 'logs', files: more }));
    expect(preview.conversations).toMatchObject({ extend: 1, add: 1 });
    expect(expectOk(await engine.call('import.applyStep', { token: preview.token })).done).toBe(false);
    expect(expectOk(await engine.call('import.cancel', { token: preview.token })).canceled).toBe(true);
    const [s, ...others] = expectOk(await engine.call('session.list', {})).items;
    expect(others).toEqual([]);
    expect(s!.turnCount).toBe(1);
    expect(expectOk(await engine.call('message.list', { sessionId: s!.id })).map((m) => m.content)).toEqual(['one', 'two']);
  });

  it('one import is written at a time; one written but never finished does not block the next', async () => {
    const { engine } = await createTestEngine({ imports: { stepMessages: 1 } });
    const preview = expectOk(await engine.call('import.preview', chatgpt()));
    expectOk(await engine.call('import.applyStep', { token: preview.token }));
    const second = await engine.call('import.preview', chatgpt());
    expect(second.ok || second.error.code).toBe('CONFLICT');
    expect(expectOk(await engine.call('import.applyStep', { token: preview.token })).done).toBe(true);
    // The page closed before import.finish: a new file can still be chosen.
    expect(expectOk(await engine.call('import.preview', chatgpt())).conversations.same).toBe(2);
  });

  it('an import nobody drives any more (the page closed) is taken back by the background pass', async () => {
    const { engine, clock } = await createTestEngine({ imports: { stepMessages: 1, abandonedMs: 60_000 } });
    const preview = expectOk(await engine.call('import.preview', chatgpt()));
    expectOk(await engine.call('import.applyStep', { token: preview.token }));
    clock.advance(30_000);
    expect(expectOk(await engine.call('import.followUp', {})).abandoned).toBe(0);
    clock.advance(31_000);
    expect(expectOk(await engine.call('import.followUp', {})).abandoned).toBe(1);
    expect(expectOk(await engine.call('session.list', {})).total).toBe(0);
    const step = await engine.call('import.applyStep', { token: preview.token });
    expect(step.ok || step.error.code).toBe('NOT_FOUND');
  });
});

describe('after an import: memories and rolling summaries in the background', () => {
  it('learns from the person’s imported messages and summarises long conversations, then has nothing left', async () => {
    const { engine } = await createTestEngine();
    const turns = Array.from({ length: 12 }, (_, i) => `user: step ${i + 1} of refactoring OrderService.processOrder\nassistant: done step ${i + 1}`).join('\n');
    await importAll(engine, { source: 'logs', files: [textFile('long.txt', turns), textFile('pref.txt', 'user: I prefer short answers.\nassistant: Noted.')] });
    expect(expectOk(await engine.call('import.status', {})).backlog).toEqual({ sessions: 2, messages: 13 });
    expect(expectOk(await engine.call('memory.list', {})).total).toBe(0);

    const first = expectOk(await engine.call('import.followUp', { limit: 5 }));
    expect(first).toMatchObject({ messages: 5, remaining: { sessions: 2, messages: 8 } });
    let last = first;
    while (last.remaining.sessions > 0) last = expectOk(await engine.call('import.followUp', { limit: 5 }));
    expect(last.remaining).toEqual({ sessions: 0, messages: 0 });

    const memories = expectOk(await engine.call('memory.list', {}));
    expect(memories.items.some((m) => m.category === 'preference' && /short answers/.test(m.content))).toBe(true);
    const long = expectOk(await engine.call('session.list', {})).items.find((s) => s.turnCount === 12)!;
    expect(expectOk(await engine.call('summary.list', { sessionId: long.id, kind: 'rolling' })).length).toBeGreaterThan(0);
  });
});

describe('SillyTavern, Claude and conversation logs', () => {
  it('a Claude export: text kept, tools and attachments left out', async () => {
    const { engine } = await createTestEngine();
    const { preview } = await importAll(engine, { source: 'auto', files: [fixtureFile('claude/conversations.json')] });
    expect(preview).toMatchObject({ source: 'claude', conversations: { add: 2 }, messages: { add: 5 }, skipped: { tool: 2, empty: 1 } });
    const untitled = expectOk(await engine.call('session.get', { id: 'claude-c1a0de00-0000-4000-8000-000000000002' }));
    expect(untitled.title).toBe('我喜欢用 Rust 写命令行工具。');
  });

  it('SillyTavern chats: the character’s greeting opens turn 1', async () => {
    const { engine } = await createTestEngine();
    const { preview } = await importAll(engine, { source: 'sillytavern', files: [fixtureFile(ST_CHAT)] });
    expect(preview.conversations.add).toBe(1);
    const [s] = expectOk(await engine.call('session.list', {})).items;
    expect(s).toMatchObject({ title: 'Captain Mirelle · 2025-03-02', turnCount: 2 });
  });

  it('002 --from-logs: a folder of logs, files that are not logs reported, not guessed at', async () => {
    const { engine } = await createTestEngine();
    const { preview } = await importAll(engine, { source: 'logs', files: fixtureFolder('logs') });
    expect(preview).toMatchObject({ conversations: { add: 4 }, skippedFiles: 1 });
    const titles = expectOk(await engine.call('session.list', {})).items.map((s) => s.title).sort();
    expect(titles).toEqual(['CacheManager 的实现', 'order-service', 'payment', 'zh-log']);
  });

  it('a lorebook goes into a project’s world files; again, nothing changes', async () => {
    const { engine, files } = await createTestEngine();
    const input = { source: 'lorebook' as const, files: [fixtureFile('sillytavern/harbor-world.json')] };
    const { preview, result } = await importAll(engine, input);
    expect(preview.lorebook).toMatchObject({ projectName: 'Harbor of Lanterns', projectExists: false, files: { incoming: 2, add: 2 } });
    expect(result.files).toMatchObject({ add: 2 });
    const project = expectOk(await engine.call('project.get', { id: preview.lorebook!.projectId }));
    expect(project.name).toBe('Harbor of Lanterns');
    expect((await files.list(project.id)).map((f) => f.path)).toEqual(['.engram/world/brass-tide-clock.md', '.engram/world/the-lantern-fleet.md']);

    const again = await importAll(engine, input);
    expect(again.preview.lorebook).toMatchObject({ projectExists: true, files: { add: 0, skip: 2 } });
    expect(expectOk(await engine.call('project.list', {}))).toHaveLength(1);
  });

  it('a character card into an existing project: a character file; one edited there is not overwritten', async () => {
    const { engine, files } = await createTestEngine();
    const p = expectOk(await engine.call('project.create', { name: 'Harbor novel' }));
    await files.write(p.id, '.engram/characters/captain-mirelle.md', '# Captain Mirelle\n\nMy own notes.');
    const { preview } = await importAll(engine, { source: 'lorebook', projectId: p.id, files: [fixtureFile('sillytavern/captain-mirelle.card.json')] });
    expect(preview.lorebook).toMatchObject({ projectId: p.id, projectExists: true, files: { add: 1, conflict: 1 } });
    expect(await files.read(p.id, '.engram/characters/captain-mirelle.md')).toContain('My own notes.');
    expect(await files.read(p.id, '.engram/world/breakwater.md')).toContain('stone breakwater');
  });
});

describe('Markdown exports', () => {
  it('a conversation, a project’s memory and all memory, in the chosen language', async () => {
    const { engine, files } = await createTestEngine();
    await importAll(engine, chatgpt());
    const conv = expectOk(await engine.call('export.markdown', { scope: { kind: 'session', id: 'chatgpt-6789a1b2-0000-4000-8000-0000000beac0' }, locale: 'zh-CN' }));
    expect(conv.fileName).toMatch(/^engram-session-chatgpt-6789-\d{4}-\d\d-\d\d\.md$/);
    expect(conv.text).toContain('# Naming a lighthouse keeper');
    expect(conv.text).toContain('**用户** · 2025-01-27 17:46:50 UTC\n\nI prefer short names.');

    const p = expectOk(await engine.call('project.create', { name: 'Harbor novel' }));
    expectOk(await engine.call('memory.create', { content: 'Mirelle never raises her voice', scope: 'project', projectId: p.id }));
    expectOk(await engine.call('rules.add', { rule: 'Short sentences in action scenes', scope: 'project', projectId: p.id }));
    await files.write(p.id, '.engram/world/tides.md', 'Spring tides twice a month.');
    const proj = expectOk(await engine.call('export.markdown', { scope: { kind: 'project', id: p.id } }));
    expect(proj.text).toMatch(/^# Harbor novel — project memory\n/);
    expect(proj.text).toContain('- Mirelle never raises her voice _(confidence 1.00');
    expect(proj.text).toContain('- Short sentences in action scenes _(style');
    expect(proj.text).toContain('### `.engram/world/tides.md`\n\nSpring tides twice a month.');

    expectOk(await engine.call('profile.update', { content: '## Reply style\n- concise' }));
    const all = expectOk(await engine.call('export.markdown', { scope: { kind: 'memories' } }));
    expect(all.fileName).toMatch(/^engram-memory-/);
    expect(all.text).toContain('## User profile\n\n## Reply style\n- concise');
    expect(all.text).not.toContain('Mirelle');
    expect(T0).toBeGreaterThan(0);
  });
});
