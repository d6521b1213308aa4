import { describe, expect, it } from 'vitest';
import { createAckedWrites, RETAIN_MS } from './acked-writes';

const write = (opId: string) => ({ method: 'message.append', input: {}, opId });

describe('a follower keeps the writes another leader acknowledged', () => {
  it('hands back, oldest first, what any other leader acknowledged; keeps the new leader\'s own', () => {
    let now = 0;
    const kept = createAckedWrites(() => now);
    kept.add(write('a1'), 'A');
    kept.add(write('a2'), 'A');
    kept.add(write('b1'), 'B');
    kept.add({ method: 'run.sweep', input: {} }, 'A'); // no op id: cannot be applied exactly once, not kept
    expect(kept.takeNotBy('B').map((r) => r.opId)).toEqual(['a1', 'a2']);
    expect(kept.takeNotBy('B')).toEqual([]);
    expect(kept.takeNotBy('C').map((r) => r.opId)).toEqual(['b1']);
  });

  it('drops a write once its leader was heard from RETAIN_MS after acknowledging it, never by the clock alone', () => {
    let now = 1000;
    const kept = createAckedWrites(() => now);
    kept.add(write('old'), 'A');
    now += RETAIN_MS * 10; // A went silent (its tab died); the next leader took long to open the file
    expect(kept.takeNotBy('B').map((r) => r.opId)).toEqual(['old']);

    kept.add(write('fine'), 'A');
    now += RETAIN_MS;
    kept.heard('A'); // A answered again long after: it held the file when it acknowledged 'fine'
    kept.add(write('recent'), 'A');
    expect(kept.takeNotBy('B').map((r) => r.opId)).toEqual(['recent']);
  });
});
