import { DAY_MS } from '../../src/lib/domain/clock';
import type { Input } from '../../src/lib/engine/protocol/contract';
import { expectOk, type TestEngine } from '../../src/lib/engine/testing';

export { DAY_MS };

/** Stores one user/assistant turn and returns both stored messages. */
export async function turn(t: TestEngine, sessionId: string, user: string, reply: string, stepMs = 60_000) {
  t.clock.advance(stepMs);
  const u = expectOk(await t.engine.call('message.append', { sessionId, role: 'user', content: user }));
  t.clock.advance(1000);
  const a = expectOk(await t.engine.call('message.append', { sessionId, role: 'assistant', content: reply }));
  return { user: u, assistant: a };
}

export async function newSession(t: TestEngine, input: Input<'session.create'> = {}) {
  return expectOk(await t.engine.call('session.create', input));
}
