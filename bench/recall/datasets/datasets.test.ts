import { describe, expect, it } from 'vitest';
import { normaliseEvidence, sessionsOf } from './locomo';
import { goldOf } from './longmemeval';
import { parseLine, turnsBeforeTest } from './madial';

describe('LoCoMo', () => {
  it('splits "D8:6; D9:17" into two evidence turns and keeps other ids as they are', () => {
    expect(normaliseEvidence(['D8:6; D9:17', 'D1:3'])).toEqual(['D8:6', 'D9:17', 'D1:3']);
    expect(normaliseEvidence(['D:11:26'])).toEqual(['D:11:26']);
    expect(normaliseEvidence([])).toEqual([]);
  });

  it('reads sessions in number order with their dates', () => {
    const conv = {
      sample_id: 'c',
      qa: [],
      conversation: {
        speaker_a: 'A',
        session_10: [{ speaker: 'A', dia_id: 'D10:1', text: 'late' }],
        session_10_date_time: '1:00 pm on 2 June, 2023',
        session_2: [{ speaker: 'B', dia_id: 'D2:1', text: 'early' }],
        session_2_date_time: '9:30 am on 1 May, 2023',
      },
    };
    const sessions = sessionsOf(conv);
    expect(sessions.map((s) => s.turns[0]?.dia_id)).toEqual(['D2:1', 'D10:1']);
    expect(new Date(sessions[0]?.date ?? 0).toISOString()).toBe('2023-05-01T09:30:00.000Z');
  });
});

describe('LongMemEval gold (README: answer_ sessions with a has_answer user turn)', () => {
  it('takes user turns with has_answer, and their session only when its id starts with answer_', () => {
    const gold = goldOf({
      question_id: 'q',
      question_type: 't',
      question: '?',
      question_date: '2023/05/20 (Sat) 02:21',
      haystack_dates: [],
      haystack_session_ids: ['answer_x_1', 'noise_2', 'answer_x_3'],
      haystack_sessions: [
        [{ role: 'user', content: 'a', has_answer: true }, { role: 'assistant', content: 'b' }],
        [{ role: 'user', content: 'c', has_answer: true }],
        [{ role: 'user', content: 'd' }, { role: 'assistant', content: 'e', has_answer: true }],
      ],
    });
    expect([...gold.sessions]).toEqual(['answer_x_1']);
    expect([...gold.turns]).toEqual(['answer_x_1#0', 'noise_2#0']);
  });
});

describe('MADial', () => {
  it('parses speaker lines and drops the dialogue markers', () => {
    expect(parseLine('<Kiki>:"嗨，你猜怎么着？"\n')).toEqual({ speaker: 'Kiki', text: '嗨，你猜怎么着？' });
    expect(parseLine(' <Assistant>:"好的！"')).toEqual({ speaker: 'Assistant', text: '好的！' });
    expect(parseLine('<BOD>\n')).toBeNull();
    expect(parseLine('<EOD>\n')).toBeNull();
  });

  it('keeps the turns before the first test turn, user and assistant', () => {
    const turns = turnsBeforeTest({
      id: 1,
      'user-id': 1,
      'relevant-id': [1],
      'test-turn': [4, 6],
      dialogue: ['<BOD>\n', '<Lisa>:"一"', '<Assistant>:"二"', '<Lisa>:"三"', '<Assistant>:"四"', '<Lisa>:"五"', '<Assistant>:"六"', '<EOD>\n'],
    });
    expect(turns).toEqual([
      { role: 'user', text: '一' },
      { role: 'assistant', text: '二' },
      { role: 'user', text: '三' },
    ]);
  });
});
