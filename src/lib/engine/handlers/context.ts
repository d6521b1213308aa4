import { parseContextRules } from '../../domain/context';
import type { Services } from '../services';
import type { Handlers } from './index';

type ContextMethods =
  | 'skill.list'
  | 'skill.validate'
  | 'context.build'
  | 'context.cancel'
  | 'run.complete'
  | 'run.get'
  | 'run.list'
  | 'run.forMessage'
  | 'run.trace'
  | 'run.traceFeedback'
  | 'run.sweep'
  | 'feedback.record'
  | 'feedback.list'
  | 'rules.list'
  | 'rules.add'
  | 'rules.update'
  | 'rules.confirm'
  | 'rules.delete'
  | 'rules.promote';

/** The context engine (issue 5): build, runs, feedback and the semantic rules. */
export function contextHandlers(s: Services): Handlers<ContextMethods> {
  const c = s.context;
  return {
    'skill.list': () => c.deps.skills.list(),
    'skill.validate': ({ contextRules }) => parseContextRules(contextRules),
    'context.build': (input) => c.context.build(input),
    'context.cancel': ({ requestId }) => c.context.cancel(requestId),
    'run.complete': (input) => c.runs.complete(input),
    'run.get': ({ runId }) => c.runs.get(runId),
    'run.list': (input) => c.runs.list(input),
    'run.forMessage': ({ messageId }) => c.runs.forMessage(messageId),
    'run.trace': ({ runId }) => c.runs.trace(runId),
    'run.traceFeedback': (input) => c.runs.traceFeedback(input),
    'run.sweep': () => c.runs.sweep(),
    'feedback.record': (input) => c.feedback.record(input),
    'feedback.list': (input) => c.feedback.list(input),
    'rules.list': (input) => c.rules.list(input),
    'rules.add': (input) => c.rules.add(input),
    'rules.update': (input) => c.rules.update(input),
    'rules.confirm': ({ id }) => c.rules.confirm(id),
    'rules.delete': ({ id }) => c.rules.delete(id),
    'rules.promote': ({ id }) => c.rules.promote(id),
  };
}
