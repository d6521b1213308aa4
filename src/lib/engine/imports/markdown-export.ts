import { exportFileName } from '../../domain/backup';
import { EngineError } from '../../domain/errors';
import { conversationMarkdown, memoryMarkdown, projectMemoryMarkdown, type MarkdownLocale } from '../../domain/imports';
import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';
import type { ReadableExportQuery } from '../store/readable-export-query';

/**
 * Exports people can read (issue 14 item 4), beside the JSON backup: a conversation, a project's whole
 * memory (memories, learned preferences, setting files, conversations with their summaries), or all
 * long-term memory with the profile — as one Markdown text and a file name.
 */
export type MarkdownScope = { kind: 'session'; id: string } | { kind: 'project'; id: string } | { kind: 'memories' };

export interface MarkdownExport {
  fileName: string;
  text: string;
}

export function createMarkdownExport(deps: { env: Pick<EngineEnv, 'clock'>; query: ReadableExportQuery; files: ProjectFileStore | undefined }) {
  const { query, env } = deps;
  const notFound = (what: string) => new EngineError('NOT_FOUND', `No ${what} with that \`scope.id\`.`, { fields: ['scope.id'] });
  const name = (scope: MarkdownScope, now: number) =>
    exportFileName(scope.kind === 'memories' ? { kind: 'all' } : scope, new Date(now)).replace(/\.json$/, '.md').replace(/^engram-backup-/, 'engram-memory-');

  return {
    async export(scope: MarkdownScope, locale: MarkdownLocale): Promise<MarkdownExport> {
      const now = env.clock.now();
      if (scope.kind === 'session') {
        const session = query.session(scope.id);
        if (!session) throw notFound('conversation');
        return { fileName: name(scope, now), text: conversationMarkdown({ session, messages: query.messages(scope.id), locale }) };
      }
      if (scope.kind === 'memories') {
        return { fileName: name(scope, now), text: memoryMarkdown({ memories: query.globalMemories(), profile: query.profile(), exportedAt: now, locale }) };
      }
      const project = query.project(scope.id);
      if (!project) throw notFound('project');
      // The rows first, read one after the other with no await between them; then the files.
      const rows = {
        memories: query.projectMemories(project.id),
        rules: query.projectRules(project.id),
        sessions: query.projectSessions(project.id).map((s) => ({ ...s, summaries: query.rollingSummaries(s.id) })),
      };
      const files = [];
      for (const entry of (await deps.files?.list(project.id)) ?? []) {
        const content = await deps.files?.read(project.id, entry.path);
        if (content !== null && content !== undefined) files.push({ path: entry.path, content });
      }
      return { fileName: name(scope, now), text: projectMemoryMarkdown({ project, ...rows, files, exportedAt: now, locale }) };
    },
  };
}
