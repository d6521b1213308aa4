import type { Message, MessageMeta, Session, Summary } from '../../domain/conversation/types';

/** Row shapes of the conversation tables and their mapping to the records the engine returns. */
export interface SessionRow {
  id: string;
  project_id: string | null;
  title: string;
  snippet: string;
  summarized_at: number | null;
  is_collected: number;
  created_at: number;
  last_active: number;
  turn_count: number;
}

export interface MessageRow {
  id: number;
  session_id: string;
  turn_no: number;
  role: Message['role'];
  content: string;
  symbols: string;
  is_collected: number;
  status: Message['status'];
  created_at: number;
  meta: string | null;
}

export interface SummaryRow {
  id: number;
  session_id: string;
  kind: Summary['kind'];
  start_turn: number;
  end_turn: number;
  summary: string;
  key_symbols: string;
  key_decisions: string;
  method: Summary['method'];
  created_at: number;
}

export const toSession = (r: SessionRow): Session => ({
  id: r.id,
  projectId: r.project_id,
  title: r.title,
  snippet: r.snippet,
  summarizedAt: r.summarized_at,
  isCollected: r.is_collected === 1,
  createdAt: r.created_at,
  lastActive: r.last_active,
  turnCount: r.turn_count,
});

export const toMessage = (r: MessageRow): Message => ({
  id: r.id,
  sessionId: r.session_id,
  turnNo: r.turn_no,
  role: r.role,
  content: r.content,
  symbols: JSON.parse(r.symbols) as string[],
  isCollected: r.is_collected === 1,
  status: r.status,
  createdAt: r.created_at,
  meta: r.meta ? (JSON.parse(r.meta) as MessageMeta) : {},
});

export const toSummary = (r: SummaryRow): Summary => ({
  id: r.id,
  sessionId: r.session_id,
  kind: r.kind,
  startTurn: r.start_turn,
  endTurn: r.end_turn,
  summary: r.summary,
  keySymbols: JSON.parse(r.key_symbols) as string[],
  keyDecisions: JSON.parse(r.key_decisions) as string[],
  method: r.method,
  createdAt: r.created_at,
});
