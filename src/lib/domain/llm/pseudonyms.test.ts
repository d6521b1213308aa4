import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../tests/fixtures/fake-openai-server';
import { createProvider } from './index';
import { createPseudonymizer } from './pseudonyms';
import { drain, settingsFor } from './test-helpers';

const servers: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('person names replaced by placeholders (003 Security & Privacy)', () => {
  const p = createPseudonymizer(['Lena', 'Anna Lee', 'Anna', '李雷']);

  it.each([
    ['My sister Lena lives in Porto.', 'My sister PERSON_1 lives in Porto.'],
    ['lena and LENA are the same person', 'PERSON_1 and PERSON_1 are the same person'],
    ['Anna Lee met Anna.', 'PERSON_2 met PERSON_3.'], // the longer name first
    ['Helena and Lenara are other names', 'Helena and Lenara are other names'], // whole words only
    ['李雷和韩梅梅在教室里', 'PERSON_4和韩梅梅在教室里'],
    ['Lena’s book', 'PERSON_1’s book'],
  ])('%s → %s', (text, masked) => {
    expect(p.mask(text)).toBe(masked);
  });

  it('what the model writes with placeholders comes back with the names', () => {
    expect(p.unmask('PERSON_1 will love Porto; PERSON_4 too. PERSON_9 stays.')).toBe('Lena will love Porto; 李雷 too. PERSON_9 stays.');
  });

  it('a stream cut anywhere, even inside a placeholder, unmasks to the same text', () => {
    const reply = 'PERSON_1 said hi to PERSON_2, and PERSON_4 waved. PERS';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: reply.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces = [0, ...points].map((start, i) => reply.slice(start, points[i] ?? reply.length));
        const s = p.streamUnmasker();
        const out = pieces.map((piece) => s.push(piece)).join('') + s.end();
        expect(out).toBe(p.unmask(reply));
      }),
    );
  });

  it('with the setting on, the model never receives a listed name and the user reads the names back', async () => {
    const server = await startFakeOpenAi({
      replies: (req) =>
        JSON.stringify(req.body).includes('response_format')
          ? { json: { who: 'PERSON_1', city: 'Porto' } }
          : { chunks: ['PERS', 'ON_1 will ', 'love it, PERSON', '_2.'] },
    });
    servers.push(server);
    const provider = createProvider(settingsFor(server.url, { pseudonymize: true, personNames: ['Lena', 'Omar'] }));
    const events = await drain(provider.chatStream({ messages: [{ role: 'system', content: 'Omar writes.' }, { role: 'user', content: 'Lena moved to Porto' }] }));
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toBe('Lena will love it, Omar.');
    expect(await provider.json({ messages: [{ role: 'user', content: 'Where does Lena live?' }], json: true }, z.object({ who: z.string(), city: z.string() }))).toEqual({
      who: 'Lena',
      city: 'Porto',
    });
    await provider.embed(['Lena at home']);
    const sent = JSON.stringify(server.requests.map((r) => r.body));
    expect(sent).not.toMatch(/Lena|Omar/);
    expect(sent).toContain('PERSON_1 moved to Porto');
    expect(sent).toContain('PERSON_2 writes.');
  });

  it('off (the default), nothing is replaced', async () => {
    const server = await startFakeOpenAi({ replies: [{ text: 'Hi Lena' }] });
    servers.push(server);
    const provider = createProvider(settingsFor(server.url, { personNames: ['Lena'] }));
    expect((await provider.chat({ messages: [{ role: 'user', content: 'I am Lena' }] })).text).toBe('Hi Lena');
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('I am Lena');
  });
});
