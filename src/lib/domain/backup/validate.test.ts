import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { validateExport } from './validate';

const SECRET = '林夜的秘密';

/** A small valid export, built here so each case changes one thing. */
function base() {
  return {
    format: 'engram-export',
    version: 1,
    exportedAt: '2026-01-17T10:30:00.000Z',
    app: { name: 'engram', version: '0.1.0', schemaVersion: 5 },
    scope: { kind: 'all' },
    tables: {
      projects: [{ id: 'p1', name: '长夜', created_at: 1, updated_at: 2 }],
      sessions: [
        { id: 's1', project_id: 'p1', title: SECRET, snippet: '', summarized_at: null, is_collected: false, created_at: 1, last_active: 2, turn_count: 1 },
      ],
      messages: [
        { id: 7, session_id: 's1', turn_no: 1, role: 'user', content: SECRET, symbols: [], is_collected: false, status: 'complete', created_at: 1, meta: null },
      ],
      settings: [{ key: 'memory.rag_top_n', value: 7, updated_at: 3 }],
    } as Record<string, Record<string, unknown>[]> & Record<'projects' | 'sessions' | 'messages' | 'settings', Record<string, unknown>[]>,
    files: [{ projectId: 'p1', path: '.engram/style/guide.md', content: SECRET }] as Record<string, unknown>[],
  };
}

type File = ReturnType<typeof base>;

function refusal(file: unknown): EngineError {
  try {
    validateExport(file);
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const edit = (change: (f: File) => void) => {
  const f = base();
  change(f);
  return f;
};

describe('validateExport', () => {
  it('accepts the base file and fills the tables it lacks', () => {
    const { file } = validateExport(base());
    expect(file.tables.messages).toHaveLength(1);
    expect(file.tables.kg_facts).toEqual([]);
  });

  it.each([
    ['a wrong type', (f: File) => ((f.tables.messages[0] as Record<string, unknown>).turn_no = 'one'), 'tables.messages[0].turn_no'],
    ['an unknown column', (f: File) => ((f.tables.sessions[0] as Record<string, unknown>).colour = 'red'), 'tables.sessions[0]'],
    ['an unknown table', (f: File) => (f.tables.secrets = []), 'tables'],
    ['a value out of range', (f: File) => ((f.tables.messages[0] as Record<string, unknown>).role = 'system'), 'tables.messages[0].role'],
    ['a huge string', (f: File) => ((f.tables.messages[0] as Record<string, unknown>).content = 'x'.repeat(200_001)), 'tables.messages[0].content'],
    ['a dangling reference', (f: File) => ((f.tables.messages[0] as Record<string, unknown>).session_id = 'gone'), 'tables.messages[0].session_id'],
    ['a missing parent table', (f: File) => (f.tables.sessions = []), 'tables.messages[0].session_id'],
    ['a duplicated id', (f: File) => f.tables.messages.push({ ...(f.tables.messages[0] as object), content: 'other' }), 'tables.messages[1].id'],
    ['an unknown setting', (f: File) => ((f.tables.settings[0] as Record<string, unknown>).key = 'model.apiKey'), 'tables.settings[0].key'],
    ['an invalid setting value', (f: File) => ((f.tables.settings[0] as Record<string, unknown>).value = 9999), 'tables.settings[0].value'],
    ['a file outside .engram/', (f: File) => ((f.files[0] as Record<string, unknown>).path = '../../etc/passwd'), 'files[0].path'],
    ['a file of a project not in the file', (f: File) => ((f.files[0] as Record<string, unknown>).projectId = 'p9'), 'files[0].projectId'],
    ['a scope whose conversation is missing', (f: File) => (f.scope = { kind: 'session', id: 's9' } as never), 'scope.id'],
    ['a bad timestamp', (f: File) => (f.exportedAt = 'yesterday'), 'exportedAt'],
  ])('refuses %s, naming the field and saying nothing changed', (_, change, field) => {
    const err = refusal(edit(change));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect((err.details?.fields as string[])[0]).toBe(field);
    expect(err.message).toContain(`\`${field}\``);
    expect(err.message).toMatch(/Nothing was imported\.$/);
    expect(err.message).not.toContain(SECRET);
  });

  it('normalises a file path inside .engram/', () => {
    const { file } = validateExport(edit((f) => ((f.files[0] as Record<string, unknown>).path = './.engram\\style//guide.md')));
    expect(file.files[0]?.path).toBe('.engram/style/guide.md');
  });

  it('stops at the first bad row of a table full of them', () => {
    const err = refusal(edit((f) => (f.tables.messages = Array.from({ length: 50_000 }, (_, i) => ({ id: i + 1 })))));
    expect(err.details?.fields).toEqual(expect.arrayContaining(['tables.messages[0].session_id']));
    expect((err.details?.issues as unknown[]).length).toBeLessThan(20);
  });
});
