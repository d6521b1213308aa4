import { describe, expect, it } from 'vitest';
import { detectKind } from './detect';
import { isLogFile, parseConversationLog } from './logs';
import { parseLorebook, slugify } from './lorebook';
import { conversationMarkdown } from './markdown';
import { assignTurns, compareConversation } from './plan';
import { fixtureText, ST_CHAT } from './testing';
import { fillTimes, parseLooseDate } from './times';

describe('SillyTavern World Info and character cards → setting files', () => {
  it('a lorebook’s entries become world files named after their titles; empty ones are left out', () => {
    const book = parseLorebook(JSON.parse(fixtureText('sillytavern/harbor-world.json')), { fileName: 'harbor-world.json' });
    expect(book.name).toBe('Harbor of Lanterns');
    expect(book.files.map((f) => f.path)).toEqual(['.engram/world/the-lantern-fleet.md', '.engram/world/brass-tide-clock.md']);
    expect(book.files[0]!.content).toBe(
      '# The Lantern Fleet\n\nKeys: lantern fleet, fleet\n\nTwelve shallow boats that carry paper lanterns out past the breakwater every night of the spring tide.\n',
    );
    expect(book.files[1]!.content).toContain('(disabled in SillyTavern)');
    expect(book.files[1]!.content).toContain('Also: brass');
  });

  it('a character card becomes a character file, its book world files', () => {
    const card = parseLorebook(JSON.parse(fixtureText('sillytavern/captain-mirelle.card.json')), { fileName: 'captain-mirelle.card.json' });
    expect(card.name).toBe('Captain Mirelle');
    expect(card.files.map((f) => [f.folder, f.path])).toEqual([
      ['characters', '.engram/characters/captain-mirelle.md'],
      ['world', '.engram/world/breakwater.md'],
    ]);
    expect(card.files[0]!.content).toMatch(/^# Captain Mirelle\n\n## Description\n\nHarbor captain/);
    expect(card.files[0]!.content).toContain('## Personality\n\nstern, loyal, dry humour');
  });

  it('titles in any script make file names; two of the same name do not collide; never a path', () => {
    expect(slugify('林 黛玉 / Lin Daiyu')).toBe('林-黛玉-lin-daiyu');
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    const book = parseLorebook({ entries: [{ comment: 'Same', content: 'a' }, { comment: 'Same', content: 'b' }] }, { fileName: 'x.json' });
    expect(book.files.map((f) => f.path)).toEqual(['.engram/world/same.md', '.engram/world/same-2.md']);
    expect(book.name).toBe('x');
  });

  it('anything else is refused with the field named', () => {
    expect(() => parseLorebook({ hello: 1 }, { fileName: 'x.json' })).toThrow(/not a SillyTavern World Info/);
    expect(() => parseLorebook({ entries: { a: { content: 5 } } }, { fileName: 'x.json' })).toThrow(/`file\.entries/);
  });
});

describe('002 --from-logs: plain conversation logs', () => {
  it('reads `user:` / `assistant:` lines with continuation lines', () => {
    const c = parseConversationLog(fixtureText('logs/order-service.txt'), { path: 'order-service.txt' })!.conversation;
    expect(c.title).toBe('order-service');
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(c.messages[1]!.content).toBe('Wrap the gateway call in a timeout and retry twice with backoff.\nIt also helps to make processOrder idempotent.');
  });

  it('reads Chinese speakers with bracketed times, and .jsonl turns', () => {
    const zh = parseConversationLog(fixtureText('logs/2026-01/zh-log.txt'), { path: '2026-01/zh-log.txt' })!.conversation;
    expect(zh.messages).toEqual([
      { role: 'user', content: '我更喜欢简洁的回答。', createdAt: Date.UTC(2026, 0, 14, 20, 0) },
      { role: 'assistant', content: '明白，以后我会简短回答。', createdAt: Date.UTC(2026, 0, 14, 20, 0, 30) },
    ]);
    const j = parseConversationLog(fixtureText('logs/payment.jsonl'), { path: 'payment.jsonl' })!.conversation;
    expect(j.messages.map((m) => [m.role, m.createdAt])).toEqual([
      ['user', Date.parse('2026-01-12T10:00:00Z')],
      ['assistant', Date.parse('2026-01-12T10:00:40Z')],
    ]);
  });

  it('a file with no speaker is not a conversation log (null), and the id follows the path', () => {
    expect(parseConversationLog(fixtureText('logs/2026-01/standup-notes.txt'), { path: '2026-01/standup-notes.txt' })).toBeNull();
    const a = parseConversationLog('user: hi', { path: 'a/x.txt' })!.conversation.id;
    expect(parseConversationLog('user: hello', { path: 'a/x.txt' })!.conversation.id).toBe(a);
    expect(parseConversationLog('user: hi', { path: 'b/x.txt' })!.conversation.id).not.toBe(a);
    expect(isLogFile('a.md') && isLogFile('b.TXT') && !isLogFile('c.png')).toBe(true);
  });

  it.each(['en', 'zh-CN'] as const)('reads back Engram’s own Markdown export (%s)', (locale) => {
    const messages = [
      { role: 'user' as const, content: 'CacheManager 需要 TTL。\n\n- one\n- two', createdAt: Date.UTC(2026, 0, 16, 9, 0, 5) },
      { role: 'assistant' as const, content: 'Use a **Map**.', createdAt: Date.UTC(2026, 0, 16, 9, 1) },
    ];
    const md = conversationMarkdown({
      session: { id: 'c1', title: 'Cache\nplan', snippet: '', createdAt: messages[0]!.createdAt, lastActive: 0, turnCount: 1 },
      messages,
      locale,
    });
    expect(md.split('\n')[0]).toBe('# Cache plan');
    const back = parseConversationLog(md, { path: 'c1.md' })!.conversation;
    expect(back.title).toBe('Cache plan');
    expect(back.messages).toEqual(messages);
  });
});

describe('how an import meets the database', () => {
  const m = (role: 'user' | 'assistant', content: string) => ({ role, content, createdAt: 1 });

  it.each([
    [null, [m('user', 'a')], 'add', 0],
    [[m('user', 'a')], [m('user', 'a'), m('assistant', 'b')], 'extend', 1],
    [[m('user', 'a'), m('assistant', 'b')], [m('user', 'a'), m('assistant', 'b')], 'same', 2],
    [[m('user', 'a'), m('assistant', 'edited here')], [m('user', 'a'), m('assistant', 'b')], 'changed', 1],
    [[m('user', 'a'), m('assistant', 'b')], [m('user', 'a')], 'changed', 1],
  ] as const)('%j + %j → %s', (existing, incoming, outcome, from) => {
    expect(compareConversation(existing, incoming)).toEqual({ outcome, from });
  });

  it('numbers turns as the chat does: a user message opens one, a greeting opens turn 1', () => {
    expect(assignTurns([m('assistant', 'hi'), m('user', 'q'), m('assistant', 'a'), m('assistant', 'a2'), m('user', 'q2')], { turnCount: 0 })).toMatchObject({
      rows: [{ turnNo: 1 }, { turnNo: 2 }, { turnNo: 2 }, { turnNo: 2 }, { turnNo: 3 }],
      turnCount: 3,
    });
    expect(assignTurns([m('assistant', 'more')], { turnCount: 4 }).rows[0]!.turnNo).toBe(4);
  });

  it('fills missing times from neighbours, then the conversation, then the import’s moment', () => {
    const c = { id: 'x', title: '', createdAt: null, messages: [{ ...m('user', 'a'), createdAt: null }, { ...m('assistant', 'b'), createdAt: 500 }, { ...m('user', 'c'), createdAt: null }] };
    expect(fillTimes(c, 9)).toEqual({ createdAt: 500, lastAt: 500 });
    expect(c.messages.map((x) => x.createdAt)).toEqual([500, 500, 500]);
    const none = { id: 'y', title: '', createdAt: null, messages: [{ ...m('user', 'a'), createdAt: null }] };
    expect(fillTimes(none, 9)).toEqual({ createdAt: 9, lastAt: 9 });
  });

  it.each([
    ['2025-3-2 @19h 04m 11s 512ms', Date.UTC(2025, 2, 2, 19, 4, 11, 512)],
    ['March 2, 2025 7:04pm', Date.UTC(2025, 2, 2, 19, 4)],
    ['March 2, 2025 12:04am', Date.UTC(2025, 2, 2, 0, 4)],
    ['2025-03-02T19:06:40.000Z', Date.UTC(2025, 2, 2, 19, 6, 40)],
    ['2025-03-02 19:06', Date.UTC(2025, 2, 2, 19, 6)],
    [1740942400000, 1740942400000],
    [1740942400, 1740942400000],
    ['yesterday', null],
    ['Smarch 2, 2025 7:04pm', null],
    ['2025-13-02 19:06', null],
  ] as const)('reads the date %j', (input, ms) => expect(parseLooseDate(input)).toBe(ms));
});

describe('which reader a file needs', () => {
  it.each([
    ['chatgpt/conversations.json', 'conversations.json', 'chatgpt'],
    ['claude/conversations.json', 'conversations.json', 'claude'],
    [ST_CHAT, 'chat.jsonl', 'sillytavern'],
    ['sillytavern/harbor-world.json', 'harbor-world.json', 'lorebook'],
    ['sillytavern/captain-mirelle.card.json', 'card.json', 'lorebook'],
    ['logs/payment.jsonl', 'payment.jsonl', 'logs'],
    ['logs/order-service.txt', 'order-service.txt', 'logs'],
  ])('%s is %s', (path, name, kind) => expect(detectKind(fixtureText(path).slice(0, 65536), name)).toBe(kind));

  it('knows an Engram backup and gives up on anything else', () => {
    expect(detectKind('{"format":"engram-export","version":2}', 'b.json')).toBe('engram');
    expect(detectKind('{"hello":1}', 'x.json')).toBeNull();
    expect(detectKind('[1,2,3]', 'x.json')).toBeNull();
  });
});
