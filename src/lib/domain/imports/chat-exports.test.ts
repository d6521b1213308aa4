import { describe, expect, it } from 'vitest';
import { parseChatgptConversation } from './chatgpt';
import { parseClaudeConversation } from './claude';
import { createJsonArraySplitter } from './json-array-splitter';
import { parseSillyTavernChat } from './sillytavern-chat';
import { fixtureText, ST_CHAT } from './testing';
import { parseJsonSafely } from '../backup/safe-json';

/** Splits a whole text into array elements in pieces of `piece` characters (as a stream would arrive). */
function split(text: string, piece = 7): unknown[] {
  const out: unknown[] = [];
  const s = createJsonArraySplitter({ element: (t) => out.push(parseJsonSafely(t)), field: 'file', expected: 'a test array', maxElementChars: 1e6 });
  for (let i = 0; i < text.length; i += piece) s.push(text.slice(i, i + piece));
  s.end();
  return out;
}

describe('JSON array splitter', () => {
  it.each([1, 3, 64, 100_000])('cuts the same elements whatever the piece size (%i)', (piece) => {
    const text = '\uFEFF [ {"a":"x,]}\\"[{"}, {"b":[1,{"c":"\\\\"}]} ,{} ]\n';
    expect(split(text, piece)).toEqual([{ a: 'x,]}"[{' }, { b: [1, { c: '\\' }] }, {}]);
  });

  it('takes an empty array', () => expect(split('[]')).toEqual([]));

  it.each([
    ['{"a":1}', /not a JSON array/],
    ['[1,2]', /items are not JSON objects/],
    ['[{"a":1}', /ends before its JSON array/],
    ['[{"a":1}] x', /more after the end/],
    ['[{"a":1} {"b":2}]', /not valid JSON/],
  ])('refuses %j naming the position, not the text', (text, why) => {
    expect(() => split(text)).toThrow(why);
    try {
      split(text);
    } catch (e) {
      expect((e as { code: string }).code).toBe('INVALID_ARGUMENT');
      expect((e as Error).message).toMatch(/at character \d+/);
    }
  });

  it('refuses an element longer than the limit', () => {
    const s = createJsonArraySplitter({ element: () => undefined, field: 'file', expected: 'x', maxElementChars: 10 });
    expect(() => s.push('[{"a":"0123456789"}')).toThrow(/longer than 10 characters/);
  });
});

describe('ChatGPT export (conversations.json message tree)', () => {
  const [sourdough, names] = split(fixtureText('chatgpt/conversations.json'), 4096).map((c, i) => parseChatgptConversation(c, i));

  it('keeps the current branch, oldest first, with timestamps and the title', () => {
    const c = sourdough!.conversation;
    expect(c.id).toBe('chatgpt-6789a1b2-0000-4000-8000-00000000c0de');
    expect(c.title).toBe('Sourdough starter rescue');
    expect(c.createdAt).toBe(1736935200123);
    expect(c.messages.map((m) => [m.role, m.createdAt])).toEqual([
      ['user', 1736935260000],
      ['assistant', 1736935275500],
      ['user', 1736935500000],
      ['assistant', 1736935520000],
    ]);
    expect(c.messages[1]!.content).toMatch(/^A nail-polish smell/);
    // The image part is left out; the text of the same message stays.
    expect(c.messages[2]!.content).toBe('Here is a photo. How much flour per feeding for 50 g of starter?');
  });

  it('skips system, tool and hidden nodes and the regenerated branch, and counts them', () => {
    expect(sourdough!.skipped).toMatchObject({ system: 1, tool: 2, branch: 1, hidden: 0 });
    expect(sourdough!.conversation.messages.some((m) => m.content.includes('regenerated'))).toBe(false);
  });

  it('reads a conversation without system node the same way', () => {
    expect(names!.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('without current_node follows the newest leaf', () => {
    const raw = JSON.parse(fixtureText('chatgpt/conversations.json'))[0];
    delete raw.current_node;
    expect(parseChatgptConversation(raw, 0).conversation.messages.at(-1)!.content).toMatch(/^250 g/);
  });

  it('names the field of a malformed conversation, never its text', () => {
    expect(() => parseChatgptConversation({ title: 'secret words', mapping: 'nope' }, 4)).toThrow(/`conversations\[4\]\.mapping`/);
    expect(() => parseChatgptConversation({ title: 'secret words', mapping: 'nope' }, 4)).not.toThrow(/secret/);
  });
});

describe('Claude export', () => {
  const [tides, rust] = split(fixtureText('claude/conversations.json')).map((c, i) => parseClaudeConversation(c, i));

  it('keeps text blocks and flat text, skips tool blocks and attachment-only messages', () => {
    const c = tides!.conversation;
    expect(c.id).toBe('claude-c1a0de00-0000-4000-8000-000000000001');
    expect(c.title).toBe('Tide tables for the harbor chapter');
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(c.messages[1]!.content).toBe('About 12:22 — a semidiurnal tide falls for roughly 6 hours 12 minutes.');
    expect(c.messages[0]!.createdAt).toBe(Date.parse('2025-02-03T08:15:10Z'));
    expect(tides!.skipped).toMatchObject({ tool: 2, empty: 1 });
  });

  it('an untitled conversation has an empty title (the engine names it from its first question)', () => {
    expect(rust!.conversation.title).toBe('');
    expect(rust!.conversation.messages[0]!.content).toBe('我喜欢用 Rust 写命令行工具。');
  });

  it('follows parent links to the newest message when the export has them', () => {
    const msg = (uuid: string, parent: string | null, sender: string, text: string) => ({ uuid, parent_message_uuid: parent, sender, text, created_at: '2025-01-01T00:00:00Z' });
    const c = parseClaudeConversation(
      { uuid: 'u', chat_messages: [msg('a', null, 'human', 'q'), msg('b', 'a', 'assistant', 'old answer'), msg('c', 'a', 'assistant', 'new answer')] },
      0,
    );
    expect(c.conversation.messages.map((m) => m.content)).toEqual(['q', 'new answer']);
    expect(c.skipped.branch).toBe(1);
  });
});

describe('SillyTavern chat (.jsonl)', () => {
  const parsed = parseSillyTavernChat(fixtureText(ST_CHAT), { fileName: ST_CHAT.split('/')[1]! });

  it('the person is the user, the character the assistant; system lines are left out', () => {
    const c = parsed.conversation;
    expect(c.messages.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(c.messages[2]!.content).toBe('Then it had better keep time tonight. Load the lanterns.');
    expect(parsed.skipped.system).toBe(1);
    expect(c.title).toBe('Captain Mirelle · 2025-03-02');
  });

  it('reads both date forms and the header’s create_date', () => {
    const c = parsed.conversation;
    expect(c.createdAt).toBe(Date.UTC(2025, 2, 2, 19, 4, 11, 512));
    expect(c.messages.map((m) => m.createdAt)).toEqual([Date.UTC(2025, 2, 2, 19, 4), Date.UTC(2025, 2, 2, 19, 5), Date.UTC(2025, 2, 2, 19, 6, 40)]);
  });

  it('the same chat under another file name is the same conversation', () => {
    expect(parseSillyTavernChat(fixtureText(ST_CHAT), { fileName: 'renamed.jsonl' }).conversation.id).toBe(parsed.conversation.id);
  });

  it('a broken line is named by its number', () => {
    expect(() => parseSillyTavernChat('{"user_name":"a","character_name":"b"}\n{"mes": 5}', { fileName: 'x.jsonl' })).toThrow(/`file line 2\.mes`/);
    expect(() => parseSillyTavernChat('{"user_name":"a"}\nnot json', { fileName: 'x.jsonl' })).toThrow(/file line 2/);
  });
});
