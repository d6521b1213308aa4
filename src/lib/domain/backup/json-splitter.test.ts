import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { createJsonSplitter, type SplitEvent } from './json-splitter';

const SECRET = 'my-diary-entry';

/** Splits `text` fed in pieces of the given sizes (cycled); returns the events. */
function split(text: string, sizes: number[] = [text.length || 1]): SplitEvent[] {
  const events: SplitEvent[] = [];
  const s = createJsonSplitter((e) => events.push(e));
  let at = 0;
  for (let k = 0; at < text.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length] as number);
    s.push(text.slice(at, at + n));
    at += n;
  }
  s.end();
  return events;
}

/** What the events say, rebuilt into the object JSON.parse would give. */
function rebuild(events: SplitEvent[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of events) {
    if (e.kind === 'head') out[e.key] = e.value;
    else if (e.kind === 'row') {
      const tables = (out.tables ??= {}) as Record<string, unknown[]>;
      (tables[e.table] ??= [])[e.index] = e.value;
    } else ((out.files ??= []) as unknown[])[e.index] = e.value;
  }
  return out;
}

/** JSON.parse's result as events can say it: empty tables and an empty file list leave no event. */
function parsed(text: string): Record<string, unknown> {
  const value = JSON.parse(text) as Record<string, unknown>;
  const tables = Object.entries((value.tables ?? {}) as Record<string, unknown[]>).filter(([, rows]) => rows.length > 0);
  const { tables: _t, files, ...head } = value;
  return {
    ...head,
    ...(tables.length ? { tables: Object.fromEntries(tables) } : {}),
    ...((files as unknown[] | undefined)?.length ? { files } : {}),
  };
}

function refusal(text: string, sizes?: number[]): EngineError {
  try {
    split(text, sizes);
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const file = {
  format: 'engram-export',
  version: 1,
  app: { name: 'engram', version: '1.0.0', schemaVersion: 8 },
  tables: {
    messages: [
      { id: 1, content: 'say "hi" \\ [{ 我喜欢用 Python', meta: null, n: -1.5e3 },
      { id: 2, content: '}]},', flag: true, nothing: null },
    ],
    memories: [],
    sessions: [{ id: 's', value: { deep: [[[1]], { a: 'b' }] } }],
  },
  files: [{ projectId: 'p', path: '.engram/a.md', content: '# 林夜\n怕水。' }],
  scope: { kind: 'all' },
};

describe('reading an export piece by piece', () => {
  it('gives what JSON.parse gives, however the text is cut', () => {
    const text = JSON.stringify(file, null, 1);
    for (const sizes of [[text.length], [1], [2, 3, 5], [7], [64]]) expect(rebuild(split(text, sizes))).toEqual(parsed(text));
  });

  it('any JSON values as rows, cut anywhere', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 6 }).filter((v) => !/"(__proto__|constructor|prototype)":/.test(JSON.stringify(v))), { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }), (rows, sizes) => {
        const doc = { format: 'engram-export', tables: { messages: rows }, files: rows };
        const text = JSON.stringify(doc);
        expect(rebuild(split(text, sizes))).toEqual(parsed(text));
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['malformed JSON', `{"a": "${SECRET}", tru}`, /not valid JSON/],
    ['a truncated file', `{"tables": {"messages": [{"a": "${SECRET}"`, /not valid JSON/],
    ['a missing comma between rows', `{"tables": {"messages": [{"a": 1} {"a": 2}]}}`, /not valid JSON/],
    ['a trailing comma', '{"tables": {"messages": [1,]}}', /not valid JSON/],
    ['text after the end', '{"a": 1} {"b": 2}', /not valid JSON/],
    ['not an object', '[1, 2, 3]', /not a JSON object/],
    ['10,000 levels of arrays in a row', `{"tables":{"messages":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}}`, /deeper than 64 levels/],
    ['10,000 levels in a top-level value', `{"x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, /deeper than 64 levels/],
    ['a __proto__ table', `{"tables": {"__proto__": {"polluted": "${SECRET}"}}}`, /`__proto__` is not allowed/],
    ['a __proto__ key in a row', `{"tables": {"messages": [{"__proto__": {"polluted": "${SECRET}"}}]}}`, /`__proto__` is not allowed/],
    ['an escaped constructor key', '{"tables": {"messages": [{"\\u0063onstructor": 1}]}}', /`constructor` is not allowed/],
    ['a string over the limit', `{"tables": {"messages": [{"a": "${'x'.repeat(2_000_001)}"}]}}`, /longer than 2000000 characters/],
    ['a repeated key', '{"tables": {}, "tables": {}}', /appears twice/],
    ['tables that are not an object', '{"tables": [1]}', /expected an object/],
  ])('refuses %s, naming the position and never the text', (_, text, message) => {
    for (const sizes of [[text.length], [3]]) {
      const err = refusal(text, sizes);
      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.message).toMatch(message);
      expect(err.message).toMatch(/at character \d+\)\. Nothing was imported\.$/);
      expect(err.message).not.toContain(SECRET);
    }
  });

  it('the position is the file\'s, not the row\'s', () => {
    const text = `{"tables": {"messages": [{"ok": 1}, {"__proto__": 1}]}}`;
    const err = refusal(text, [5]);
    expect(err.details?.position).toBe(text.indexOf('"__proto__"'));
  });

  it('accepts a byte-order mark and white space anywhere between tokens', () => {
    expect(rebuild(split('\uFEFF { "tables" : { "messages" : [ 1 , "x" ] } , "files" : [ ] } \n', [4]))).toEqual({ tables: { messages: [1, 'x'] } });
  });

  it('streams a large file in linear time', () => {
    const row = JSON.stringify({ id: 'x', content: '记忆'.repeat(200), tags: ['a', 'b'], value: { n: [1, 2, { d: null }] } });
    const text = `{"tables":{"memories":[${Array.from({ length: 20_000 }, () => row).join(',')}]}}`;
    const started = performance.now();
    let rows = 0;
    const s = createJsonSplitter(() => rows++);
    for (let at = 0; at < text.length; at += 65_536) s.push(text.slice(at, at + 65_536));
    s.end();
    expect(rows).toBe(20_000);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
