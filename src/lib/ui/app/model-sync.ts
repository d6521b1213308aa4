import { embeddingEndpointOf, type ModelSettings } from '../../domain/llm/settings';
import type { EmbeddingEndpoint } from '../../engine/embeddings/semantic-service';
import type { HostRole } from '../../engine/host/messages';

/** Where the page sends what the model settings ask for (the connection's two workers). */
export interface ModelSinks {
  /** The DB worker's `embeddings.configure` (recall); resolves false when the engine refused it (it did not take it). */
  configureEngine(endpoint: EmbeddingEndpoint | null): Promise<boolean>;
  /** The jobs worker's `configureEmbeddings` (the background fill). */
  configureJobs(endpoint: EmbeddingEndpoint | null): void;
  /** The jobs worker's `setModel` (the chat model its jobs phrase rules with). */
  setJobsModel(settings: ModelSettings): void;
}

/**
 * One value kept in step with one receiver: sent when the receiver can take it, then again only when it really
 * changes (compared by content: the settings store hands out a new object on every load, save and liveQuery echo)
 * or when the receiver lost it.
 */
function inStep<T>(send: (value: T) => Promise<boolean> | void, ready: boolean) {
  let wanted: { key: string; value: T } | null = null;
  let sent: string | null = null;
  const flush = () => {
    if (!ready || !wanted || wanted.key === sent) return;
    const { key, value } = wanted;
    sent = key;
    const forget = () => {
      if (sent === key) sent = null;
    };
    void Promise.resolve(send(value)).then((took) => took === false && forget(), forget);
  };
  return {
    want(value: T): void {
      wanted = { key: JSON.stringify(value), value };
      flush();
    },
    ready(): void {
      ready = true;
      flush();
    },
    lost(): void {
      sent = null;
      flush();
    },
  };
}

/**
 * The model settings, as the workers must know them (issue 18, docs/design/06-retrieval.md "Meaning-based recall"):
 *
 *   settings (load, save, another tab's save) ──▶ jobs worker: setModel, configureEmbeddings   (on a real change)
 *                                            └─▶ DB worker: embeddings.configure               (once it answers,
 *                                                 on a real change, and when this tab starts to lead: a new engine)
 *
 * The endpoint lives in the DB worker's memory only, so an engine this tab's worker opens anew knows none; the
 * jobs worker lives as long as the page and keeps what it was told.
 */
export function createModelSync(sinks: ModelSinks) {
  const engine = inStep<EmbeddingEndpoint | null>((e) => sinks.configureEngine(e), false);
  const jobs = inStep<EmbeddingEndpoint | null>((e) => sinks.configureJobs(e), true);
  const model = inStep<ModelSettings>((s) => sinks.setJobsModel(s), true);
  let role: HostRole = 'starting';
  return {
    /** The settings in force (once loaded). */
    settings(value: ModelSettings): void {
      const endpoint = embeddingEndpointOf(value);
      model.want(value);
      jobs.want(endpoint);
      engine.want(endpoint);
    },
    /** The engine answered (system.status): calls reach a database now. */
    engineReady(): void {
      engine.ready();
    },
    /** This tab's DB worker's role; becoming the leader means it opened an engine of its own, which knows no endpoint. */
    role(next: HostRole): void {
      const began = next === 'leader' && role !== 'leader';
      role = next;
      if (began) engine.lost();
    },
  };
}
