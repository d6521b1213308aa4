/**
 * The CLI's arguments and errors, in this process (the same runCli the child process runs): every
 * mistake is a JSON error naming the option, with the exit code a script can act on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from './args';
import { jsonOf, runCliInProcess, tempProject } from './testing';

describe('CLI arguments and errors', () => {
  const project = tempProject();
  const cli = (args: string[], input?: string) => runCliInProcess(args, { cwd: project.dir, input });

  beforeAll(async () => {
    expect((await cli(['store', '--conversation', 'conv-1', '--role', 'user', '--content', 'OrderService 的 processOrder 超时了'])).code).toBe(0);
  });
  afterAll(() => project.remove());

  it.each([
    [['recall', '--query', 'x'], { query: 'x', limit: 5 }],
    [['recall', '--query', 'x', '--limit', '12', '--conversation', 'c'], { limit: 12, conversation: 'c' }],
    [['cleanup', '--older-than', '30d'], { 'older-than': 30, all: false, yes: false }],
    [['cleanup', '--older-than', '7'], { 'older-than': 7 }],
    [['export'], { scope: 'all', format: 'json' }],
    [['import', 'backup.json', '--mode', 'replace', '--yes'], { mode: 'replace', yes: true, positionals: ['backup.json'] }],
    [['serve'], { port: 7411 }],
    [['init', '--db', 'x.db', '--project-root', 'p', '--verbose'], { db: 'x.db', 'project-root': 'p', verbose: true }],
  ])('parses %j', (argv, expected) => {
    expect(parseCommand(argv).args).toMatchObject(expected);
  });

  it.each([
    [[], 2, 'INVALID_ARGUMENT', 'command'],
    [['frobnicate'], 2, 'INVALID_ARGUMENT', 'command'],
    [['recall'], 2, 'INVALID_ARGUMENT', '--query'],
    [['recall', '--query', 'x', '--nope'], 2, 'INVALID_ARGUMENT', '--nope'],
    [['recall', '--query', 'x', '--limit', '0'], 2, 'INVALID_ARGUMENT', '--limit'],
    [['store', '--conversation', 'conv-1', '--role', 'robot', '--content', 'x'], 2, 'INVALID_ARGUMENT', '--role'],
    [['store', '--conversation', 'conv-1', '--role', 'user'], 2, 'INVALID_ARGUMENT', '--content'],
    [['store', '--role', 'user', '--content', 'x'], 2, 'INVALID_ARGUMENT', '--conversation'],
    [['summarize', '--conversation', 'conv-1', '--from-turn', '2', '--to-turn', '1'], 2, 'INVALID_ARGUMENT', '--to-turn'],
    [['summarize', '--conversation', 'conv-9', '--from-turn', '1', '--to-turn', '2'], 3, 'NOT_FOUND', '--conversation'],
    [['summarize', '--conversation', 'conv-1', '--from-turn', '5', '--to-turn', '6'], 3, 'NOT_FOUND', '--from-turn'],
    [['cleanup'], 2, 'INVALID_ARGUMENT', '--older-than'],
    [['cleanup', '--all', '--older-than', '3d'], 2, 'INVALID_ARGUMENT', '--all'],
    [['cleanup', '--older-than', 'soon'], 2, 'INVALID_ARGUMENT', '--older-than'],
    [['cleanup', '--conversation', 'conv-9'], 3, 'NOT_FOUND', '--conversation'],
    [['cleanup', '--all'], 1, 'MEMORY_CLEAR_CONFIRM_REQUIRED', '--yes'],
    [['export', '--scope', 'everything'], 2, 'INVALID_ARGUMENT', '--scope'],
    [['export', '--scope', 'conversation:conv-9'], 3, 'NOT_FOUND', '--scope'],
    [['import', 'missing.json'], 3, 'NOT_FOUND', '<file>'],
    [['import', 'a.json', 'b.json'], 2, 'INVALID_ARGUMENT', 'arguments'],
    [['serve', '--port', '70000'], 2, 'INVALID_ARGUMENT', '--port'],
  ])('%j → exit %i, %s naming %s', async (argv, exit, code, field) => {
    const r = await cli(argv);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(exit);
    const error = jsonOf(r.stderr).error as { code: string; message: string; fields: string[] };
    expect(error.code).toBe(code);
    expect(error.fields).toContain(field);
  });

  it.each([
    ['not json', 'stdin line 1'],
    ['{"role":"user"}', 'stdin line 1.content'],
    ['{"role":"user","content":"ok"}\n{"role":"system","content":"x"}', 'stdin line 2.role'],
  ])('store --stdin %j → exit 2 naming %s', async (input, field) => {
    const r = await cli(['store', '--conversation', 'conv-stdin', '--stdin'], input);
    expect(r.code).toBe(2);
    expect((jsonOf(r.stderr).error as { fields: string[] }).fields).toContain(field);
  });

  it('never repeats what the user typed in an error', async () => {
    const r = await cli(['store', '--conversation', 'conv-1', '--role', 'my-secret-role', '--content', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('my-secret-role');
  });

  it('--help prints the usage and exits 0; a command’s --help its own options', async () => {
    for (const argv of [['--help'], ['help']]) {
      const r = await cli(argv);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain('Usage: engram <command>');
      expect(r.stdout).toContain('npm run engram -- <command>');
    }
    const store = await cli(['store', '--help']);
    expect([store.code, store.stderr]).toEqual([0, '']);
    expect(store.stdout).toMatch(/^engram store --conversation <id>/);
  });

  it('import --mode replace refuses without --yes (nothing changes) and replaces with it', async () => {
    const exported = await cli(['export', '--scope', 'conversation:conv-1']);
    expect(exported.code).toBe(0);
    const file = join(project.dir, 'conv-1.json');
    writeFileSync(file, exported.stdout);
    expect((await cli(['store', '--conversation', 'conv-1', '--role', 'user', '--content', 'a later turn'])).code).toBe(0);

    const refused = await cli(['import', file, '--mode', 'replace']);
    expect([refused.code, (jsonOf(refused.stderr).error as { code: string }).code]).toEqual([1, 'MEMORY_CLEAR_CONFIRM_REQUIRED']);
    const recallLater = async () => (jsonOf((await cli(['recall', '--query', 'later turn'])).stdout).results as unknown[]).length;
    expect(await recallLater()).toBe(1);

    const replaced = await cli(['import', file, '--mode', 'replace', '--yes']);
    expect(replaced.code).toBe(0);
    expect(jsonOf(replaced.stdout)).toMatchObject({ mode: 'replace', tables: { messages: { removed: 2 } } });
    expect(await recallLater()).toBe(0);
  });

  it('import reads the file from stdin with `-` (002: memory_import < backup.json)', async () => {
    const exported = await cli(['export']);
    const sessions = (JSON.parse(exported.stdout) as { tables: { sessions: unknown[] } }).tables.sessions.length;
    expect(sessions).toBeGreaterThan(0);
    const r = await cli(['import', '-', '--db', 'other.db'], exported.stdout);
    expect(r.code).toBe(0);
    expect(jsonOf(r.stdout)).toMatchObject({ mode: 'merge', tables: { sessions: { incoming: sessions, added: sessions } } });
  });
});
