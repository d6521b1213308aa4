import type { EngineCaller } from '../../engine/client/caller';
import type { EmbeddingStatus } from '../../engine/embeddings/types';

/** How long typing pauses before the question being typed is embedded (a word or two, not every keystroke). */
export const PREPARE_PAUSE_MS = 400;

/**
 * Meaning-based recall while the person types (issue 18): once typing pauses, the text that will be sent is given to
 * `embeddings.prepare`, so the recall after Enter finds its vector cached instead of waiting for the embedding
 * endpoint. The engine sends it only to an endpoint on this device; here nothing is asked while no embedding model is
 * configured, for blank text, or for the text already prepared.
 */
export function createQuestionPreparer(deps: {
  engine: () => EngineCaller | null;
  embeddings: () => EmbeddingStatus | null;
  /** 'ask': the text as recall.search gets it; 'message': a chat message (the engine adds what a context build adds). */
  as: 'ask' | 'message';
  pauseMs?: number;
}) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = '';
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    /** The text as it would be sent now; embedded after a pause in typing. */
    typed(text: string): void {
      cancel();
      if (!text.trim() || text === last) return;
      timer = setTimeout(() => {
        timer = null;
        // Read when typing pauses, not at the keystroke: the page may be typed into before the engine is up.
        const engine = deps.engine();
        if (!engine || !deps.embeddings()?.model) return;
        last = text;
        // Best effort: a failure only means the recall asks the endpoint itself, as it would have.
        void engine.call('embeddings.prepare', { text, as: deps.as }).then((res) => {
          if (!res.ok) last = '';
        });
      }, deps.pauseMs ?? PREPARE_PAUSE_MS);
    },
    cancel,
  };
}
