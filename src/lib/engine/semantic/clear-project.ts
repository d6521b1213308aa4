import { EngineError } from '../../domain/errors';
import type { ContextDeps } from '../context/deps';
import type { ProjectClearReport } from './types';

/**
 * 003 "用户执行项目级清除" (memory:clear:project): one project's episodes and project rules — with their
 * learning history, conflicts, feedback events, the runs' learning rows and its working memory — go;
 * global memory and other projects stay. Only with `confirm: true` (003 "清除操作必须有确认流程").
 */
export function clearProjectMemory(deps: ContextDeps, input: { projectId: string; confirm: boolean }): ProjectClearReport {
  deps.projects.mustFind(input.projectId, 'projectId');
  if (!input.confirm) {
    throw new EngineError('MEMORY_CLEAR_CONFIRM_REQUIRED', 'Clearing a project’s memory needs `confirm: true`; nothing was deleted.', { field: 'confirm' });
  }
  const { driver } = deps.env;
  const episodes = deps.episodes.deleteProject(input.projectId);
  const rules = driver.run("DELETE FROM semantic_rules WHERE scope = 'project' AND project_id = ?", [input.projectId]).changes;
  const history = deps.learning.history.deleteProject(input.projectId);
  deps.learning.conflicts.deleteProject(input.projectId);
  const feedbackEvents = deps.feedback.deleteProject(input.projectId);
  driver.run('DELETE FROM run_learning WHERE project_id = ?', [input.projectId]);
  const workingMemory = deps.writing.forgetProject(input.projectId);
  deps.env.log.info('memory.project-cleared', { episodes, rules });
  return { projectId: input.projectId, episodes, rules, history, feedbackEvents, workingMemory };
}
