/**
 * What a chat conversation (chat-session.svelte.ts) needs from the outside world, as ports: the engine, the
 * outbox, the model settings and provider, and what to do with a finished turn's after-reply work. The app
 * passes browserChatDeps(); tests pass a real in-memory engine and a scripted model.
 */
import type { Clock } from '../../../domain/clock';
import type { ModelSettings } from '../../../domain/llm/settings';
import type { ModelProvider } from '../../../domain/llm/types';
import type { EngineCaller } from '../../../engine/client/caller';
import type { AfterReplyJob } from '../../../engine/turn/types';
import type { Outbox } from '../../local/outbox';

export interface ChatDeps {
  engine: EngineCaller;
  /** Where a message goes when no database answers (kept on this device, drained later). */
  outbox: Pick<Outbox, 'write'>;
  /** The model settings in force (await before the first model request). */
  settings: () => Promise<ModelSettings>;
  provider: (settings: ModelSettings) => ModelProvider;
  locale: () => 'en' | 'zh-CN';
  clock: Clock;
  /** A completed turn's queued after-reply work: memory extraction off the page (the jobs worker), its notices. */
  afterReply: (job: AfterReplyJob, settings: ModelSettings) => void;
}
