/** The chat's ports in the app: the page's engine connection and outbox, the model settings, the jobs worker. */
import { systemClock } from '../../../domain/clock';
import { createProvider } from '../../../domain/llm';
import type { EngineCaller } from '../../../engine/client/caller';
import { connection } from '../../app/connection.svelte';
import { modelSettings } from '../../app/model-settings.svelte';
import { i18n } from '../../i18n/i18n.svelte';
import type { ChatDeps } from './chat-deps';
import { rememberAfterReply } from './remember';

export function browserChatDeps(): ChatDeps {
  // The connection starts in the layout's onMount: reach it only when a call is made.
  const engine: EngineCaller = { call: (method, input, opts) => connection.engine.call(method, input, opts) };
  return {
    engine,
    outbox: { write: (method, input) => connection.outbox.write(method, input) },
    settings: () => modelSettings.ready(),
    provider: (s) => createProvider(s),
    locale: () => i18n.locale,
    clock: systemClock,
    afterReply: (job, settings) => rememberAfterReply({ jobs: connection.jobsApi, engine, job, settings }),
  };
}
