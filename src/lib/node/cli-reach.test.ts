/**
 * The installable command's surface (issue 14): --version, --help for every command, --pretty beside
 * the JSON with the same exit codes, `import --from …` and `export --format markdown` — in this process
 * (the same runCli the installed command runs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_FIXTURES } from '../domain/imports/testing';
import { APP_VERSION } from '../engine/backup/app-info';
import { COMMANDS } from './args';
import { sidecarDir } from './sidecar';
import { jsonOf, runCliInProcess, tempProject } from './testing';

describe('engram: version, help, --pretty', () => {
  const project = tempProject();
  const cli = (...args: string[]) => runCliInProcess(args, { cwd: project.dir });
  afterAll(() => project.remove());

  it('--version and -V print the package version', async () => {
    for (const flag of ['--version', '-V', 'version']) expect(await cli(flag)).toEqual({ code: 0, stdout: `${APP_VERSION}\n`, stderr: '' });
  });

  it.each(Object.keys(COMMANDS))('%s --help explains that command and exits 0', async (name) => {
    const r = await cli(name, '--help');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain(name === 'version' ? 'engram --version' : `engram ${name}`);
    expect(r.stdout).toContain('Exit codes');
    expect((await cli('help', name)).stdout).toBe(r.stdout);
  });

  it('--pretty shows results for a person, errors as one line, with the same exit codes', async () => {
    const stored = await cli('store', '--conversation', 'p1', '--role', 'user', '--content', 'OrderService.processOrder times out \u001b[31mred\u001b[0m', '--pretty');
    expect(stored.code).toBe(0);
    expect(stored.stdout).toMatch(/^Stored turn \d+ in p1 at \d{4}-\d\d-\d\d \d\d:\d\d — symbols: .*processOrder/);
    const found = await cli('recall', '--query', 'processOrder', '--pretty');
    expect(found.stdout).toMatch(/^1\. \[\d\.\d\d\] .* p1\n {3}user \(turn_id \d+\): OrderService\.processOrder times out \[31mred\[0m\n\(1 of/);
    expect(found.stdout).not.toContain('\u001b');
    const json = await cli('recall', '--query', 'processOrder');
    expect(jsonOf(json.stdout).results).toHaveLength(1);

    const bad = await cli('recall', '--query', 'x', '--limit', 'many', '--pretty');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^engram: Invalid `--limit`: .* \(INVALID_ARGUMENT\)\n$/);
    const missing = await cli('summarize', '--conversation', 'nope', '--from-turn', '1', '--to-turn', '2', '--pretty');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/\(NOT_FOUND\)/);
  });
});

describe('engram import --from and export --format markdown', () => {
  const project = tempProject();
  const cli = (...args: string[]) => runCliInProcess(args, { cwd: project.dir });
  afterAll(() => project.remove());

  it('002 memory_import --from-logs: a folder of logs, then memories and summaries; again adds nothing', async () => {
    const dry = jsonOf((await cli('import', '--from', 'logs', join(IMPORT_FIXTURES, 'logs'), '--dry-run')).stdout);
    expect(dry).toMatchObject({ dry_run: true, conversations: { added: 4 }, skipped_files: 1 });
    expect(jsonOf((await cli('recall', '--query', 'CacheManager')).stdout).results).toEqual([]);

    const r = await cli('import', '--from', 'logs', join(IMPORT_FIXTURES, 'logs'));
    expect([r.code, r.stderr]).toEqual([0, '']);
    const out = jsonOf(r.stdout);
    expect(out).toMatchObject({ dry_run: false, written: { conversations: 4, messages: 12 }, follow_up: { messages_read: 6 } });
    expect((out.follow_up as { memories: number }).memories).toBeGreaterThan(0);

    const recall = jsonOf((await cli('recall', '--query', '继续昨天的 CacheManager 实现')).stdout);
    expect((recall.results as { content: string }[])[0]?.content).toMatch(/CacheManager/);
    const again = jsonOf((await cli('import', '--from', 'logs', join(IMPORT_FIXTURES, 'logs'))).stdout);
    expect(again).toMatchObject({ conversations: { added: 0, unchanged: 4 }, written: { conversations: 0, messages: 0 } });
  });

  it('a lorebook into a named project; bad uses of --from are refused naming the option', async () => {
    const r = jsonOf((await cli('import', '--from', 'lorebook', join(IMPORT_FIXTURES, 'sillytavern/harbor-world.json'), '--project-name', 'Harbor')).stdout);
    expect(r).toMatchObject({ lorebook: { project_name: 'Harbor', project_exists: false, files: { added: 2 } }, files_written: 2 });
    const projectId = (r.lorebook as { project_id: string }).project_id;
    // Project files live beside the database they belong to (<db>-engram/projects, issue 13).
    const file = join(sidecarDir(join(project.dir, '.engram', 'conversation-memory.db')), 'projects', projectId, '.engram', 'world', 'the-lantern-fleet.md');
    expect(readFileSync(file, 'utf8')).toMatch(/^# The Lantern Fleet/);

    const wrong = await cli('import', '--from', 'claude', join(IMPORT_FIXTURES, 'chatgpt/conversations.json'));
    expect(wrong.code).toBe(2);
    expect(jsonOf(wrong.stderr)).toMatchObject({ error: { code: 'INVALID_ARGUMENT', fields: ['--from'] } });
    expect((await cli('import', '--from', 'chatgpt', join(project.dir, 'none.json'))).code).toBe(3);
    expect((await cli('import', '--from', 'chatgpt', '-')).code).toBe(2);
    expect((await cli('import', '--from', 'skype', 'x.json')).code).toBe(2);
  });

  it('a conversation as Markdown to a file, and imported back as a log', async () => {
    await cli('import', '--from', 'chatgpt', join(IMPORT_FIXTURES, 'chatgpt/conversations.json'));
    const out = join(project.dir, 'conv.md');
    const r = jsonOf((await cli('export', '--format', 'markdown', '--scope', 'conversation:chatgpt-6789a1b2-0000-4000-8000-0000000beac0', '--out', out, '--locale', 'zh-CN')).stdout);
    expect(r).toMatchObject({ file: out, format: 'markdown' });
    expect(readFileSync(out, 'utf8')).toContain('**助手** · 2025-01-27 17:47:00 UTC\n\nIvo, Brann, Tesk.');
    const memories = await cli('export', '--format', 'markdown', '--scope', 'memories');
    expect(memories.stdout).toMatch(/^# Engram memory\n/);
    expect((await cli('export', '--scope', 'memories')).code).toBe(2);
    expect((await cli('export', '--format', 'markdown', '--scope', 'all')).code).toBe(2);
    expect((await cli('export', '--format', 'markdown', '--scope', 'conversation:missing')).code).toBe(3);
  });
});
