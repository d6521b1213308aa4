/**
 * Issue 13 defect 6, the Node host's smaller holes: a row with one key twice, `__proto__`/`constructor`
 * keys in an error message, a refused `store --stdin` that left an empty conversation and named
 * `--content`, `import -` buffering all of stdin before its size check, and `--limit -5`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../engine/testing';
import { readAll } from './backup-commands';
import { openFileEngine } from './open-file-db';
import { jsonOf, runCliInProcess, tempProject } from './testing';

const project = tempProject();
let exportText = '';
beforeAll(async () => {
  expect((await runCliInProcess(['store', '--conversation', 'c1', '--role', 'user', '--content', 'hello'], { cwd: project.dir })).code).toBe(0);
  const file = join(project.dir, 'e.json');
  expect((await runCliInProcess(['export', '--out', file], { cwd: project.dir })).code).toBe(0);
  exportText = readFileSync(file, 'utf8');
});
afterAll(() => project.remove());

const errorOf = (stderr: string) => jsonOf(stderr.trim().split('\n').at(-1) as string).error as { code: string; message: string; fields?: string[] };

async function importVariant(name: string, text: string) {
  const file = join(project.dir, `${name}.json`);
  writeFileSync(file, text);
  const db = join(project.dir, `${name}.db`);
  const r = await runCliInProcess(['import', file, '--db', db], { cwd: project.dir });
  const check = openFileEngine({ dbPath: db });
  const sessions = expectOk(await check.engine.call('session.list', {})).total;
  check.close();
  return { ...r, sessions };
}

describe('import files a stranger may have written', () => {
  it('a row with the same key twice is refused, naming neither value, and nothing is imported', async () => {
    expect(exportText).toContain('"content":"hello"');
    const r = await importVariant('dup', exportText.replace('"content":"hello"', '"content":"first","content":"second"'));
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['<file>'] });
    expect(errorOf(r.stderr).message).toMatch(/a key appears twice in the same object/);
    expect(errorOf(r.stderr).message).not.toMatch(/first|second/);
    expect(r.sessions).toBe(0);
  });

  it.each([
    ['__proto__', '"__proto__":{"x":1},'],
    ['constructor', '"constructor":"x",'],
  ])('a `%s` key is named as such, not as "[object Object]"', async (key, insert) => {
    const r = await importVariant(`key-${key}`, exportText.replace('"content":"hello"', `${insert}"content":"hello"`));
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).message).toContain(`the key \`${key}\` is not allowed`);
    expect(errorOf(r.stderr).message).not.toMatch(/object Object|native code/);
  });
});

describe('store --stdin', () => {
  it('a refused first line leaves no empty conversation behind and names the stdin line, not --content', async () => {
    const line = JSON.stringify({ role: 'user', content: 'x'.repeat(200_001) });
    const r = await runCliInProcess(['store', '--conversation', 'c-refused', '--stdin'], { cwd: project.dir, input: `${line}\n` });
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['stdin line 1.content'] });
    expect(errorOf(r.stderr).message).toMatch(/^Invalid `stdin line 1\.content`: must be at most 200000 characters/);
    const check = await runCliInProcess(['summarize', '--conversation', 'c-refused', '--from-turn', '1', '--to-turn', '1'], { cwd: project.dir });
    expect(errorOf(check.stderr).code).toBe('NOT_FOUND');
  });

  it('a refused --content leaves no empty conversation either', async () => {
    const r = await runCliInProcess(['store', '--conversation', 'c-refused-2', '--role', 'user', '--content', 'x'.repeat(200_001)], { cwd: project.dir });
    expect(errorOf(r.stderr)).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['--content'] });
    const check = await runCliInProcess(['summarize', '--conversation', 'c-refused-2', '--from-turn', '1', '--to-turn', '1'], { cwd: project.dir });
    expect(errorOf(check.stderr).code).toBe('NOT_FOUND');
  });

  it('the lines before a refused one stay stored, in a conversation that exists', async () => {
    const lines = [JSON.stringify({ role: 'user', content: 'kept' }), JSON.stringify({ role: 'robot', content: 'no' })].join('\n');
    const r = await runCliInProcess(['store', '--conversation', 'c-partial', '--stdin'], { cwd: project.dir, input: `${lines}\n` });
    expect(r.code).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(errorOf(r.stderr).fields).toEqual(['stdin line 2.role']);
  });
});

describe('import - (stdin)', () => {
  it('stops reading as soon as stdin passes the largest importable size, instead of buffering it all', async () => {
    let produced = 0;
    // An endless stdin: only a reader that stops at the limit ever returns.
    const endless = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 0x20));
      },
    });
    await expect(readAll(endless, 1024 * 1024)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fields: ['<file>'] } });
    expect(produced).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('arguments', () => {
  it('--limit -5 is a value that is too small, not "a flag"', async () => {
    const r = await runCliInProcess(['recall', '--query', 'hello', '--limit', '-5'], { cwd: project.dir });
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['--limit'] });
    expect(errorOf(r.stderr).message).toMatch(/`--limit`: must be at least 1/);
  });

  it('a value that starts with "-" but is no number says how to give it', async () => {
    const r = await runCliInProcess(['recall', '--query', '-hello'], { cwd: project.dir });
    expect(errorOf(r.stderr).message).toMatch(/starts with "-"; write it as `--query=<value>`/);
  });
});
