import { describe, expect, it } from 'vitest';
import type { EngineRequest } from '../engine';
import { isUserWrite } from '../protocol/contract';
import { createCaller } from './caller';

describe('engine caller: op ids', () => {
  it.each([
    ['message.append', { sessionId: 's', role: 'user', content: 'x' }, true],
    ['session.update', { id: 's', title: 't' }, true],
    ['workingMemory.sweep', {}, false],
    ['run.sweep', {}, false],
    ['jobs.record', { job: 'maintenance', trigger: 'idle', status: 'ok', startedAt: 0, finishedAt: 0, result: {} }, false],
    ['session.list', {}, false],
  ] as const)('%s carries an op id: %s', async (method, input, withOpId) => {
    const sent: EngineRequest[] = [];
    const caller = createCaller({ call: async (req) => (sent.push(req), { ok: true, data: null }) }, () => 'op-00000001');
    await caller.call(method, input as never);
    expect(sent[0]?.opId !== undefined).toBe(withOpId);
  });

  it('a person\'s writes count as real saves (persistent storage is asked for), bookkeeping does not', () => {
    expect(isUserWrite('message.append')).toBe(true);
    expect(isUserWrite('memory.update')).toBe(true);
    for (const m of ['jobs.record', 'workingMemory.sweep', 'run.sweep', 'maintenance.optimize', 'maintenance.ftsMerge', 'session.list'] as const)
      expect(isUserWrite(m), m).toBe(false);
  });
});
