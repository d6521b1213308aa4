-- Issue 16 item 3 (cold start → first recall): recall asks, for each head turn, which rolling summary covers it
-- (recall/turn-index.ts summaryBlocks: session, end_turn ≥ turn, start_turn ≤ turn, kind, created_at). Through
-- summaries_session (session_id, end_turn) every match was a lookup into the summaries table, whose rows hold the
-- summary text, so each lands on a page of its own: 24 of the first recall's ~214 page reads at 10,000 turns
-- (natively, a cold page cache), against 7 with the columns it reads in the index. Same key prefix, so every
-- reader of the old index is served as before; summaries are written once per block of turns, never by
-- message.append.
DROP INDEX summaries_session;
CREATE INDEX summaries_session ON summaries(session_id, end_turn, start_turn, kind, created_at);
