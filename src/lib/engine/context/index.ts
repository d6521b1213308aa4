/**
 * The context engine (issue 5), wired once per open database:
 *
 *   handlers/context*.ts ─▶ context (build) · runs · feedback (+ learning) · rules · projects/files/documents · graph
 *                              │ over store/run-repo, rule-repo, feedback-repo, trace-repo, project-repo,
 *                              │ document-repo, kg-repo, context-query and the ProjectFileStore (OPFS)
 *   long-term memory (issue 4) ─▶ memory-port (profile, retrieve, markAccessed)
 */
import { defaultTokenCounter } from '../../domain/text/tokens';
import type { RollingSummaries } from '../conversation/rolling-summaries';
import type { WorkingMemoryRegistry } from '../conversation/working-memory-registry';
import type { EngineEnv } from '../env';
import { memoryProjectFileStore } from '../files/project-file-store';
import type { RecallService } from '../recall/recall-service';
import { createContextQuery } from '../store/context-query';
import { createDocumentRepo } from '../store/document-repo';
import { createFeedbackRepo } from '../store/feedback-repo';
import { createKnowledgeGraph } from '../store/kg-repo';
import type { MessageRepo } from '../store/message-repo';
import { createProjectRepo } from '../store/project-repo';
import { createRuleRepo } from '../store/rule-repo';
import { createRunRepo } from '../store/run-repo';
import { createRunToolMemories } from '../store/run-tool-memories';
import type { SessionRepo } from '../store/session-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { SummaryRepo } from '../store/summary-repo';
import { createTraceRepo } from '../store/trace-repo';
import { createEpisodeRepo } from '../store/episode-repo';
import { createLearningRepo } from '../store/learning-repo';
import { createWritingMemoryRegistry } from '../episodes/writing-memory-registry';
import { createEpisodeService } from '../episodes/episode-service';
import { createDistillService } from '../semantic/distill-service';
import { createCompaction } from './compaction';
import { createContextService } from './context-service';
import type { ContextDeps } from './deps';
import { createFeedbackService } from './feedback-service';
import { createGraphService } from './graph-service';
import type { MemoryPort } from './memory-port';
import { createRulesService } from './rules-service';
import { createRunHistory } from './run-history';
import { createRunService } from './run-service';
import { createSkillRegistry } from './skills';
import { contextTuning } from './tuning';

export function createContextServices(base: {
  env: EngineEnv;
  settings: SettingsRepo;
  sessions: SessionRepo;
  messages: MessageRepo;
  summaries: SummaryRepo;
  rolling: Pick<RollingSummaries, 'roll'>;
  workingMemory: Pick<WorkingMemoryRegistry, 'peek'>;
  memory: MemoryPort;
  /** The engine's one recall service (services.ts): the context's L4 recalls exactly as recall.search does. */
  recall: RecallService;
}) {
  const { env } = base;
  const tuning = contextTuning(env.context);
  const summaries = base.summaries;
  const files = env.files ?? memoryProjectFileStore(env.clock);
  const documents = createDocumentRepo(env);
  const runs = createRunRepo(env);
  const feedback = createFeedbackRepo(env);
  // Writing memory that learns (issue 17).
  const episodes = createEpisodeRepo(env);
  const learning = createLearningRepo(env);
  const writing = createWritingMemoryRegistry({ clock: env.clock, counter: defaultTokenCounter, learning, episodes });
  const deps: ContextDeps = {
    ...base,
    tuning,
    files,
    skills: createSkillRegistry(),
    projects: createProjectRepo(env),
    documents,
    rules: createRuleRepo(env),
    runs,
    runToolMemories: createRunToolMemories(env),
    traces: createTraceRepo(env),
    feedback,
    contextQuery: createContextQuery(env),
    compaction: createCompaction({ env, summaries, counter: defaultTokenCounter, tuning }),
    runHistory: createRunHistory({ files, documents, runs, feedback, tuning }),
    episodes,
    learning,
    writing,
  };
  const graph = createKnowledgeGraph(env);
  const feedbackService = createFeedbackService(deps);
  return {
    deps,
    context: createContextService(deps),
    runs: createRunService(deps),
    feedback: feedbackService,
    rules: createRulesService(deps),
    // Writing memory that learns (issue 17): episodes, working memory, distillation's engine side.
    episodes: createEpisodeService(deps, feedbackService.outcomes),
    distill: createDistillService(deps),
    graph,
    graphCheck: createGraphService({ graph, projects: deps.projects }),
  };
}

export type ContextServices = ReturnType<typeof createContextServices>;
