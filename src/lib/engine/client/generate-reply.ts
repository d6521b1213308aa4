import type { Clock } from '../../domain/clock';
import { EngineError } from '../../domain/errors';
import { runWithTools } from '../../domain/llm';
import { createSearchMemoriesTool } from '../../domain/llm/search-memories-tool';
import type { ChatMessage, ModelProvider } from '../../domain/llm/types';
import type { EngineCaller } from './caller';

/** How many memories one search_memories call may return to the model. */
export const TOOL_SEARCH_LIMIT = 10;

export interface GeneratedReply {
  text: string;
  /** Memories search_memories put before the model (already recorded with the run by the engine). */
  toolMemoryIds: string[];
}

/**
 * The model's reply to a built context (the chat's stream step), with seed 000's optional agentic search:
 *
 *   memory.enable_agentic_search off ─▶ plain stream
 *   on ─▶ search_memories offered ─▶ the model calls it ─▶ memory.search { runId } (the engine marks what
 *         it returns accessed and stores it with the run) ─▶ the result goes back to the model ─▶ reply
 *
 * The setting is read per reply, so a change applies to the next one: turn.prepare returns it (`agentic`), so
 * no call of its own is needed; without it, settings.get is asked.
 */
export async function generateReply(opts: {
  engine: Pick<EngineCaller, 'call'>;
  provider: ModelProvider;
  messages: ChatMessage[];
  runId: string;
  signal: AbortSignal;
  clock: Clock;
  onDelta: (text: string) => void;
  /** memory.enable_agentic_search as turn.prepare read it; absent: read now. */
  agentic?: boolean;
}): Promise<GeneratedReply> {
  const { engine, provider, messages, signal, onDelta } = opts;
  const agentic = opts.agentic ?? (await readAgentic(engine));
  const found: string[] = [];
  if (agentic) {
    const tool = createSearchMemoriesTool({
      clock: opts.clock,
      search: async (q) => {
        const res = await engine.call('memory.search', { keyword: q.keyword, fromMs: q.fromMs, toMs: q.toMs, limit: TOOL_SEARCH_LIMIT, runId: opts.runId });
        if (!res.ok) throw new EngineError(res.error.code, res.error.message);
        for (const hit of res.data.items) if (!found.includes(hit.memory.id)) found.push(hit.memory.id);
        // What the model needs, not the whole record: fewer tokens for small local models, and no id it
        // might echo into the reply (the run keeps which memories these were).
        return {
          items: res.data.items.map((h) => ({ content: h.memory.content, category: h.memory.category, created: new Date(h.memory.createdAt).toISOString().slice(0, 10) })),
        };
      },
    });
    const { result } = await runWithTools({ provider, request: { messages, signal }, tools: { [tool.spec.name]: tool }, onDelta });
    return { text: result.text, toolMemoryIds: found };
  }
  let text = '';
  for await (const ev of provider.chatStream({ messages, signal })) {
    if (ev.type === 'delta') {
      text += ev.text;
      onDelta(ev.text);
    }
  }
  return { text, toolMemoryIds: found };
}

async function readAgentic(engine: Pick<EngineCaller, 'call'>): Promise<boolean> {
  const settings = await engine.call('settings.get', {});
  return settings.ok && settings.data['memory.enable_agentic_search'];
}
