import { argumentsText, finishReasonOf, toUsage, type Chunk, type ToolCallDelta } from './openai-wire';
import type { StreamEvent, ToolCall, Usage } from './types';

/**
 * Turns parsed stream chunks into StreamEvents. Text deltas pass straight through; tool calls arrive in
 * pieces (id and name first, arguments in fragments) and are assembled by `index`, then emitted once,
 * complete, before `done`. Quirks handled: Ollama before 0.8 sends whole calls without `index`; some
 * servers send arguments as an object, or repeat the name in every fragment.
 */
export interface StreamAssembler {
  push(chunk: Chunk): StreamEvent[];
  /** True once a chunk carried a finish_reason. */
  readonly finished: boolean;
  finish(): StreamEvent[];
}

interface Slot {
  id: string;
  name: string;
  args: string;
}

export function createStreamAssembler(): StreamAssembler {
  const slots: Slot[] = [];
  let finishReason: string | null = null;
  let usage: Usage | undefined;

  const slotFor = (d: ToolCallDelta): Slot => {
    let i: number;
    if (typeof d.index === 'number') i = d.index;
    else if (d.id) {
      const found = slots.findIndex((s) => s.id === d.id);
      i = found === -1 ? slots.length : found;
    } else {
      // Neither index nor id: a name starts a new call, a bare fragment continues the last one.
      const last = slots[slots.length - 1];
      const starts = Boolean(d.function?.name) && (!last || last.name !== d.function?.name || last.args !== '');
      i = starts ? slots.length : Math.max(0, slots.length - 1);
    }
    while (slots.length <= i) slots.push({ id: '', name: '', args: '' });
    return slots[i]!;
  };

  const addToolDelta = (d: ToolCallDelta) => {
    const slot = slotFor(d);
    if (d.id) slot.id = d.id;
    if (d.function?.name) slot.name = d.function.name;
    const args = d.function?.arguments;
    // An object is a whole argument set, not a fragment.
    if (args !== null && args !== undefined && typeof args !== 'string') slot.args = argumentsText(args);
    else if (args) slot.args += args;
  };

  return {
    get finished() {
      return finishReason !== null;
    },
    push(chunk) {
      const out: StreamEvent[] = [];
      usage = toUsage(chunk.usage) ?? usage;
      for (const choice of chunk.choices ?? []) {
        const text = choice.delta?.content;
        if (text) out.push({ type: 'delta', text });
        for (const d of choice.delta?.tool_calls ?? []) addToolDelta(d);
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
      return out;
    },
    finish() {
      const out: StreamEvent[] = [];
      const calls: ToolCall[] = slots
        .filter((s) => s.name !== '')
        .map((s, i) => ({ id: s.id || `call_${i}`, name: s.name, arguments: s.args || '{}' }));
      if (calls.length) out.push({ type: 'tool_calls', calls });
      out.push({ type: 'done', finishReason: finishReasonOf(finishReason, calls.length > 0), ...(usage ? { usage } : {}) });
      return out;
    },
  };
}
