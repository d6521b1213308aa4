import type { ChatMessage, ChatRequest, ChatResult, ModelProvider, StreamEvent, ToolCall } from './types';

/**
 * 003 Security & Privacy — "敏感字段（人名映射）可配置脱敏": the person names a user lists are replaced by stable
 * placeholders in everything sent to a model, and put back in what the model answers. Off unless names are
 * listed. Placeholders are numbered by the name's place in the list, so the same name always gets the same one.
 *
 *   "Lena moved to Porto" ─▶ model sees "PERSON_1 moved to Porto" ─▶ model: "PERSON_1 will love it" ─▶ "Lena will love it"
 *
 * A streamed answer may cut a placeholder in two ("PERS" | "ON_1"): the unmasker holds back a tail that could
 * still become one until the next piece (or the end) decides.
 */
export interface Pseudonymizer {
  mask(text: string): string;
  unmask(text: string): string;
  /** Unmasks a stream piece by piece; `end()` returns what was held back. */
  streamUnmasker(): { push(piece: string): string; end(): string };
}

const PLACEHOLDER = /PERSON_(\d+)/g;
/** A tail that may still grow into a placeholder: "P", "PERS", "PERSON_", "PERSON_1" (a digit may follow). */
const PARTIAL_TAIL = /P(?:E(?:R(?:S(?:O(?:N(?:_\d*)?)?)?)?)?)?$/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Latin-script names match whole words, case-insensitively; names in other scripts (e.g. 李雷) match as written. */
const isLatin = (s: string) => /^[\p{Script=Latin}\s'’.-]+$/u.test(s);

export function createPseudonymizer(names: readonly string[]): Pseudonymizer {
  const list = [...new Set(names.map((n) => n.trim()).filter((n) => n.length > 0))];
  const placeholderOf = new Map(list.map((name, i) => [name.toLocaleLowerCase(), `PERSON_${i + 1}`]));
  // Longest first, so "Anna Lee" is replaced before "Anna".
  const ordered = [...list].sort((a, b) => b.length - a.length);
  const pattern = ordered.length
    ? new RegExp(ordered.map((n) => (isLatin(n) ? `(?<![\\p{L}\\p{N}])${escape(n)}(?![\\p{L}\\p{N}])` : escape(n))).join('|'), 'giu')
    : null;
  const unmask = (text: string) => text.replace(PLACEHOLDER, (whole, n: string) => list[Number(n) - 1] ?? whole);
  return {
    mask: (text) => (pattern ? text.replace(pattern, (found) => placeholderOf.get(found.toLocaleLowerCase()) ?? found) : text),
    unmask,
    streamUnmasker() {
      let held = '';
      return {
        push(piece) {
          const text = held + piece;
          const tail = PARTIAL_TAIL.exec(text)?.[0] ?? '';
          held = tail;
          return unmask(text.slice(0, text.length - tail.length));
        },
        end() {
          const rest = unmask(held);
          held = '';
          return rest;
        },
      };
    },
  };
}

/** JSON answers: every string in the value, unmasked. */
function unmaskDeep<T>(value: T, p: Pseudonymizer): T {
  if (typeof value === 'string') return p.unmask(value) as T;
  if (Array.isArray(value)) return value.map((v) => unmaskDeep(v, p)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unmaskDeep(v, p)])) as T;
  return value;
}

/** A provider that never sends the listed names: every request masked, every answer unmasked. */
export function withPseudonyms(provider: ModelProvider, names: readonly string[]): ModelProvider {
  const p = createPseudonymizer(names);
  const maskCall = (c: ToolCall): ToolCall => ({ ...c, arguments: p.mask(c.arguments) });
  const unmaskCall = (c: ToolCall): ToolCall => ({ ...c, arguments: p.unmask(c.arguments) });
  const maskMessage = (m: ChatMessage): ChatMessage => ({ ...m, content: p.mask(m.content), ...(m.toolCalls ? { toolCalls: m.toolCalls.map(maskCall) } : {}) });
  const masked = (req: ChatRequest): ChatRequest => ({ ...req, messages: req.messages.map(maskMessage) });
  return {
    kind: provider.kind,
    canGenerate: provider.canGenerate,
    async *chatStream(req): AsyncIterable<StreamEvent> {
      const text = p.streamUnmasker();
      for await (const event of provider.chatStream(masked(req))) {
        if (event.type === 'delta') {
          const out = text.push(event.text);
          if (out) yield { type: 'delta', text: out };
          continue;
        }
        const rest = text.end();
        if (rest) yield { type: 'delta', text: rest };
        yield event.type === 'tool_calls' ? { type: 'tool_calls', calls: event.calls.map(unmaskCall) } : event;
      }
      const rest = text.end();
      if (rest) yield { type: 'delta', text: rest };
    },
    async chat(req): Promise<ChatResult> {
      const res = await provider.chat(masked(req));
      return { ...res, text: p.unmask(res.text), toolCalls: res.toolCalls.map(unmaskCall) };
    },
    async json(req, schema) {
      return unmaskDeep(await provider.json(masked(req), schema), p);
    },
    embed: (texts, opts) => provider.embed(texts.map(p.mask), opts),
    testConnection: (opts) => provider.testConnection(opts),
  };
}
