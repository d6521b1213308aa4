import type { TurnSignals } from './rank-turns';

/** Test support: the signals of a text match where nothing else acted (override what a case is about). */
export const QUIET_SIGNALS: Readonly<TurnSignals> = Object.freeze({
  lane: 'text',
  lexical: 0,
  neighbour: 0,
  nearby: 0,
  session: 0,
  speaker: 1,
  cue: false,
  turnRank: null,
  recencyBasis: 'timeless',
  coverage: null,
  answerType: null,
  statement: null,
  semantic: null,
  semanticRank: null,
});
