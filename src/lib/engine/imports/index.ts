import type { RollingSummaries } from '../conversation/rolling-summaries';
import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';
import type { ExtractionService } from '../memory/extraction-service';
import { createImportRepo } from '../store/import-repo';
import type { MessageRepo } from '../store/message-repo';
import { createReadableExportQuery } from '../store/readable-export-query';
import { createFollowUp } from './follow-up';
import { createImportService, type ImportTuning } from './import-service';
import { createMarkdownExport } from './markdown-export';

/**
 * Engram where people already are (issue 14), wired once per open database:
 *
 *   handlers/imports.ts ─▶ import-service (preview · steps · finish · cancel; run journal)
 *                       ─▶ follow-up (memories + rolling summaries of what was imported, in the background)
 *                       ─▶ markdown-export (a conversation, a project's memory, all memory)
 *   readers of each format: domain/imports (pure)
 */
export function createImportServices(deps: {
  env: EngineEnv;
  messages: MessageRepo;
  extraction: ExtractionService;
  rolling: RollingSummaries;
  files: ProjectFileStore | undefined;
  tuning?: Partial<ImportTuning>;
}) {
  const repo = createImportRepo(deps.env);
  const imports = createImportService({ env: deps.env, repo, messages: deps.messages, files: deps.files, tuning: deps.tuning });
  const followUp = createFollowUp({ repo, extraction: deps.extraction, rolling: deps.rolling, log: deps.env.log, sweepAbandoned: imports.sweepAbandoned });
  return {
    imports,
    followUp,
    markdown: createMarkdownExport({ env: deps.env, query: createReadableExportQuery(deps.env), files: deps.files }),
    status: () => ({ backlog: repo.pendingCount(), current: imports.current(), runs: repo.recentRuns(5) }),
  };
}

export type ImportServices = ReturnType<typeof createImportServices>;
export type { ImportFinish, ImportPlanPreview, ImportProgress, ImportTuning } from './import-service';
export type { FollowUpReport } from './follow-up';
export type { MarkdownExport, MarkdownScope } from './markdown-export';
