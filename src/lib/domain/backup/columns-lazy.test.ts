import { describe, expect, it } from 'vitest';
import { col, defaulted, nullable } from './columns';
import { rowSchema } from './table-spec';
import { TABLES } from './tables';

describe('export columns build their schemas on first use (issue 16, cold start)', () => {
  it('a column keeps one schema object, with the checks it always had', () => {
    const c = col.text(5);
    const s = c.schema;
    expect(c.schema).toBe(s);
    expect(s.safeParse('toolong').success).toBe(false);
    expect(nullable(c).schema.safeParse(null).success).toBe(true);
    expect(nullable(c).nullable).toBe(true);
    expect(defaulted(col.int(), 3).schema.parse(undefined)).toBe(3);
  });

  it('a row schema still names the bad column and refuses unknown ones', () => {
    const messages = TABLES.find((t) => t.name === 'messages');
    expect(messages).toBeDefined();
    const schema = rowSchema(messages!);
    const bad = schema.safeParse({ id: 'not a number' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path[0])).toContain('id');
    const extra = schema.safeParse({ nope: 1 });
    expect(extra.error?.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true);
  });
});
