/** Conversation records as the engine returns them (seed 000 session/conversation, seed 002 turns). */
export type Role = 'user' | 'assistant';
export type MessageStatus = 'complete' | 'stopped' | 'failed';

export interface Session {
  id: string;
  projectId: string | null;
  title: string;
  snippet: string;
  summarizedAt: number | null;
  isCollected: boolean;
  createdAt: number;
  lastActive: number;
  turnCount: number;
}

export interface MessageMeta {
  /** The model that wrote an assistant reply ('' for none). */
  model?: string;
  /** Ids of the memories placed in the context for this reply ("memory used"). */
  memoryIds?: string[];
  /** The context run behind this reply (inspector). */
  runId?: string;
  /** A failure's error code, when status is 'failed'. */
  errorCode?: string;
}

export interface Message {
  id: number;
  sessionId: string;
  turnNo: number;
  role: Role;
  content: string;
  symbols: string[];
  isCollected: boolean;
  status: MessageStatus;
  createdAt: number;
  meta: MessageMeta;
}

export interface Summary {
  id: number;
  sessionId: string;
  kind: 'rolling' | 'compact';
  startTurn: number;
  endTurn: number;
  summary: string;
  keySymbols: string[];
  keyDecisions: string[];
  method: 'model' | 'extractive';
  createdAt: number;
}

/** Seed 001 working memory: per active session, in the DB worker's memory only. */
export interface WorkingMemory {
  sessionId: string;
  currentTopic: string | null;
  contextVariables: Record<string, string>;
  turnCount: number;
  lastEmotion: Emotion | null;
  createdAt: number;
  updatedAt: number;
}

export type Emotion = 'joy' | 'gratitude' | 'anger' | 'frustration' | 'sadness' | 'anxiety' | 'surprise' | 'neutral';
