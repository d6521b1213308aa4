import type { EngineCaller } from '../../engine/client/caller';
import type { EmbeddingStatus } from '../../engine/embeddings/types';

/** How long typing pauses before the question being typed is embedded (a word or two, not every keystroke). */
export const PREPARE_PAUSE_MS = 400;

/** A text to embed, and (`as: 'message'`) the selection its context build recalls by with it. */
export interface PreparedText {
  text: string;
  selectionText?: string;
}

/**
 * Meaning-based recall while the person types (issue 18): once typing pauses, the text that will be sent is given to
 * `embeddings.prepare`, so the recall after Enter finds its vector cached instead of waiting for the embedding
 * endpoint. The engine sends it only to an endpoint on this device; here nothing is asked while no embedding model is
 * configured, for blank text, or for the texts already prepared.
 */
export function createQuestionPreparer(deps: {
  engine: () => EngineCaller | null;
  embeddings: () => EmbeddingStatus | null;
  /** 'ask': the text as recall.search gets it; 'message': a chat or skill message (the engine adds what a context build adds). */
  as: 'ask' | 'message';
  pauseMs?: number;
}) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The texts asked for at the last pause (a repeat of one is not asked again). */
  let asked = new Set<string>();
  const keyOf = (p: PreparedText) => JSON.stringify([p.text, p.selectionText ?? '']);
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  /** Every text a send could ask for now (a skill run: one per skill that recalls); embedded after a pause. */
  function prepare(texts: readonly PreparedText[]): void {
    cancel();
    // Two skills that would send the same text ask once.
    const wanted = [...new Map(texts.filter((p) => p.text.trim() !== '').map((p) => [keyOf(p), p])).values()];
    if (wanted.every((p) => asked.has(keyOf(p)))) return;
    timer = setTimeout(() => {
      timer = null;
      // Read when typing pauses, not at the keystroke: the page may be typed into before the engine is up.
      const engine = deps.engine();
      if (!engine || !deps.embeddings()?.model) return;
      const fresh = wanted.filter((p) => !asked.has(keyOf(p)));
      asked = new Set(wanted.map(keyOf));
      for (const p of fresh) {
        const input = { text: p.text, as: deps.as, ...(p.selectionText ? { selectionText: p.selectionText } : {}) };
        // Best effort: a failure only means the recall asks the endpoint itself, as it would have.
        void engine.call('embeddings.prepare', input).then((res) => {
          if (!res.ok) asked.delete(keyOf(p));
        });
      }
    }, deps.pauseMs ?? PREPARE_PAUSE_MS);
  }
  return {
    /** The text as it would be sent now; embedded after a pause in typing. */
    typed: (text: string): void => prepare([{ text }]),
    prepare,
    cancel,
  };
}
