import { describe, expect, it } from 'vitest';
import { stripScaffolding } from './reply-clean';

describe('stripScaffolding (issue 15: the reply shows no raw layer text)', () => {
  it.each([
    ['## Relevant memories\n- My sister is called Lena.\n\nYour sister is Lena.', '- My sister is called Lena.\n\nYour sister is Lena.'],
    ['## L4 · retrieved · 相关记忆\nYes [memory:32ddae99-1b2c-4d5e-8f90-a1b2c3d4e5f6], Lena.', 'Yes, Lena.'],
    ['好的 [recall:turn:6]，我记住了。', '好的，我记住了。'],
    ['See [session:7abe12] and [turn:12].', 'See and.'],
  ])('removes headings and citations: %j', (reply, clean) => {
    expect(stripScaffolding(reply)).toBe(clean);
  });

  it('leaves the model’s own markdown, links and brackets alone', () => {
    const reply = '## Plan\n1. [Read this](https://example.com)\n2. Use `arr[0]` and [x] done\n\n### Relevant memories of the trip';
    expect(stripScaffolding(reply)).toBe(reply);
  });
});
