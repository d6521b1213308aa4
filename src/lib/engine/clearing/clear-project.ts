import { EngineError } from '../../domain/errors';
import type { ContextDeps } from '../context/deps';
import type { ProjectClearReport } from '../semantic/types';
import type { ClearLog } from './clear-log';
import { deleteRuns, forgetQueuedRuns } from './runs';

/**
 * 003 "用户执行项目级清除" (memory:clear:project), issue 19 "clearing that means it": everything the memory
 * holds of one project goes — its episodes and project rules (with their learning history, conflicts and
 * feedback), its long-term memories, its runs (chat and Write, with their traces and learning rows), the
 * summaries of its conversations, its story graph (kg_*) and its working memory. Global memory, other projects, the
 * conversations and the documents themselves stay. Only with `confirm: true`, otherwise
 * MEMORY_CLEAR_CONFIRM_REQUIRED and nothing changes; recorded in the clear log (one transaction: the
 * engine runs a write call in one).
 */
export function clearProjectMemory(deps: ContextDeps, log: ClearLog, input: { projectId: string; confirm: boolean }): ProjectClearReport {
  const project = deps.projects.mustFind(input.projectId, 'projectId');
  if (input.confirm !== true) {
    throw new EngineError('MEMORY_CLEAR_CONFIRM_REQUIRED', 'Clearing a project’s memory needs `confirm: true`; nothing was deleted.', { field: 'confirm' });
  }
  const { driver } = deps.env;
  const p = input.projectId;
  const sessions = '(SELECT id FROM sessions WHERE project_id = ?)';
  const runs = deleteRuns(driver, `project_id = ? OR session_id IN ${sessions} OR document_id IN (SELECT id FROM documents WHERE project_id = ?)`, [p, p, p]);
  forgetQueuedRuns(driver);
  const episodes = deps.episodes.deleteProject(p);
  const rules = driver.run("DELETE FROM semantic_rules WHERE scope = 'project' AND project_id = ?", [p]).changes;
  const history = deps.learning.history.deleteProject(p);
  deps.learning.conflicts.deleteProject(p);
  const feedbackEvents = deps.feedback.deleteProject(p);
  driver.run('DELETE FROM run_learning WHERE project_id = ?', [p]);
  const memories = driver.run("DELETE FROM memories WHERE scope = 'project' AND project_id = ?", [p]).changes;
  const summaries = driver.run(`DELETE FROM summaries WHERE session_id IN ${sessions}`, [p]).changes;
  driver.run(`UPDATE sessions SET snippet = '', summarized_at = NULL WHERE project_id = ?`, [p]);
  const workingMemory = deps.writing.forgetProject(p);
  // The story graph (kg_*: who is where, what happened when) is what the memory learned of the story, with
  // evidence pointing into the episodes and runs cleared above: it goes with them. The documents and setting
  // files it was drawn from stay.
  const graphFacts = driver.run('DELETE FROM kg_facts WHERE project_id = ?', [p]).changes;
  const graphEntities = driver.run('DELETE FROM kg_entities WHERE project_id = ?', [p]).changes;
  const report = { projectId: p, episodes, rules, history, feedbackEvents, workingMemory, memories, runs, summaries, graphFacts, graphEntities };
  const { projectId: _, ...counts } = report;
  log.record({ kind: 'project', projectId: p, projectName: project.name, counts });
  deps.env.log.info('memory.project-cleared', counts);
  return report;
}
