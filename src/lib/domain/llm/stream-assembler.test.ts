import { describe, expect, it } from 'vitest';
import type { Chunk } from './openai-wire';
import { createStreamAssembler } from './stream-assembler';
import type { StreamEvent } from './types';

const delta = (d: Record<string, unknown>, finish: string | null = null): Chunk => ({ choices: [{ delta: d, finish_reason: finish }] });

function run(chunks: Chunk[]): StreamEvent[] {
  const a = createStreamAssembler();
  return [...chunks.flatMap((c) => a.push(c)), ...a.finish()];
}

describe('createStreamAssembler', () => {
  it.each<[string, Chunk[], StreamEvent[]]>([
    [
      'text deltas, then usage from a final choice-less chunk',
      [delta({ role: 'assistant', content: '' }), delta({ content: 'Hi' }), delta({ content: null }), delta({}, 'stop'), { choices: [], usage: { prompt_tokens: 5, completion_tokens: 1 } }],
      [{ type: 'delta', text: 'Hi' }, { type: 'done', finishReason: 'stop', usage: { promptTokens: 5, completionTokens: 1 } }],
    ],
    [
      'OpenAI-style fragments by index, two calls interleaved',
      [
        delta({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '' } }] }),
        delta({ tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{"y"' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '1}' } }, { index: 1, function: { arguments: ':2}' } }] }, 'tool_calls'),
      ],
      [
        { type: 'tool_calls', calls: [{ id: 'a', name: 'f', arguments: '{"x":1}' }, { id: 'b', name: 'g', arguments: '{"y":2}' }] },
        { type: 'done', finishReason: 'tool_calls' },
      ],
    ],
    [
      'old Ollama: whole calls without index, arguments as an object, finish "stop"',
      [delta({ tool_calls: [{ id: 'c1', function: { name: 'f', arguments: { q: 'x' } } }, { id: 'c2', function: { name: 'g', arguments: {} } }] }, 'stop')],
      [
        { type: 'tool_calls', calls: [{ id: 'c1', name: 'f', arguments: '{"q":"x"}' }, { id: 'c2', name: 'g', arguments: '{}' }] },
        { type: 'done', finishReason: 'tool_calls' },
      ],
    ],
    [
      'no index and no id: a name starts a call, bare fragments continue it; missing ids are generated',
      [
        delta({ tool_calls: [{ function: { name: 'f', arguments: '{"a"' } }] }),
        delta({ tool_calls: [{ function: { arguments: ':1}' } }] }),
        delta({ tool_calls: [{ function: { name: 'g', arguments: '' } }] }),
      ],
      [
        { type: 'tool_calls', calls: [{ id: 'call_0', name: 'f', arguments: '{"a":1}' }, { id: 'call_1', name: 'g', arguments: '{}' }] },
        { type: 'done', finishReason: 'tool_calls' },
      ],
    ],
    [
      'a name repeated in every fragment is not doubled',
      [delta({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{' } }] }), delta({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '}' } }] })],
      [{ type: 'tool_calls', calls: [{ id: 'a', name: 'f', arguments: '{}' }] }, { type: 'done', finishReason: 'tool_calls' }],
    ],
  ])('%s', (_label, chunks, expected) => {
    expect(run(chunks)).toEqual(expected);
  });

  it('knows whether a finish_reason arrived', () => {
    const a = createStreamAssembler();
    a.push(delta({ content: 'x' }));
    expect(a.finished).toBe(false);
    a.push(delta({}, 'length'));
    expect(a.finished).toBe(true);
    expect(a.finish()).toEqual([{ type: 'done', finishReason: 'length' }]);
  });
});
