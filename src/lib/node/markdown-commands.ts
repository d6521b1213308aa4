/**
 * Node-only. `engram export --format markdown` (issue 14 item 4): a conversation, a project's whole
 * memory, or all long-term memory with the profile, to `--out` (written beside, then renamed) or stdout.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EngineError } from '../domain/errors';
import type { MarkdownScope } from '../engine/imports';
import type { CommandArgs } from './args';
import { callerFor } from './engine-call';
import type { FileEngine } from './open-file-db';

function markdownScope(text: string): MarkdownScope {
  if (text === 'memories') return { kind: 'memories' };
  const at = text.indexOf(':');
  const kind = text.slice(0, at);
  if (at === -1 || text === 'all') throw new EngineError('INVALID_ARGUMENT', 'Invalid `--scope`: a Markdown export is of `conversation:<id>`, `project:<id>` or `memories`.', { fields: ['--scope'] });
  return { kind: kind === 'project' ? 'project' : 'session', id: text.slice(at + 1) };
}

export async function markdownExportCommand(ctx: { db: FileEngine; args: CommandArgs<'export'>; write(text: string): void }) {
  const { db, args } = ctx;
  const call = callerFor(db.engine, { scope: '--scope', 'scope.id': '--scope', locale: '--locale' });
  const out = await call('export.markdown', { scope: markdownScope(args.scope), locale: args.locale });
  if (!args.out) {
    ctx.write(out.text);
    return null;
  }
  const target = resolve(args.out);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.partial`, out.text, 'utf8');
  renameSync(`${target}.partial`, target);
  return { file: target, scope: args.scope, format: 'markdown', chars: out.text.length };
}
