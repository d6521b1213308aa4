import type { RollingSummaries } from '../conversation/rolling-summaries';
import type { WorkingMemoryRegistry } from '../conversation/working-memory-registry';
import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';
import type { RecallService } from '../recall/recall-service';
import type { ContextQuery } from '../store/context-query';
import type { DocumentRepo } from '../store/document-repo';
import type { FeedbackRepo } from '../store/feedback-repo';
import type { MessageRepo } from '../store/message-repo';
import type { ProjectRepo } from '../store/project-repo';
import type { RuleRepo } from '../store/rule-repo';
import type { RunRepo } from '../store/run-repo';
import type { SessionRepo } from '../store/session-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { SummaryRepo } from '../store/summary-repo';
import type { RunToolMemories } from '../store/run-tool-memories';
import type { TraceRepo } from '../store/trace-repo';
import type { EpisodeRepo } from '../store/episode-repo';
import type { LearningRepo } from '../store/learning-repo';
import type { WritingMemoryRegistry } from '../episodes/writing-memory-registry';
import type { Compaction } from './compaction';
import type { MemoryPort } from './memory-port';
import type { RunHistory } from './run-history';
import type { SkillRegistry } from './skills';
import type { ContextTuning } from './tuning';

/** Everything the context engine's services share (built once in context/index.ts). */
export interface ContextDeps {
  env: EngineEnv;
  tuning: ContextTuning;
  settings: SettingsRepo;
  sessions: SessionRepo;
  messages: MessageRepo;
  summaries: SummaryRepo;
  /** Rolling summaries are made when a context needs them (storing a turn does not make them). */
  rolling: Pick<RollingSummaries, 'roll'>;
  workingMemory: Pick<WorkingMemoryRegistry, 'peek'>;
  recall: RecallService;
  memory: MemoryPort;
  files: ProjectFileStore;
  skills: SkillRegistry;
  projects: ProjectRepo;
  documents: DocumentRepo;
  rules: RuleRepo;
  runs: RunRepo;
  runToolMemories: RunToolMemories;
  traces: TraceRepo;
  feedback: FeedbackRepo;
  contextQuery: ContextQuery;
  compaction: Compaction;
  runHistory: RunHistory;
  /** Writing memory that learns (issue 17): episodes, the learning bookkeeping, the working memory. */
  episodes: EpisodeRepo;
  learning: LearningRepo;
  writing: WritingMemoryRegistry;
}
