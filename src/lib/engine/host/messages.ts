import type { IpcError, IpcResponse } from '../../domain/errors';
import type { EngineRequest } from '../engine';
import type { Method } from '../protocol/contract';
import type { StorageKind } from '../protocol/types';
import type { SessionChangeSet } from '../store/session-changes';

/** Messages between the DB workers of several tabs, over one BroadcastChannel. */
export type RelayMessage =
  | { t: 'req'; from: string; id: string; req: EngineRequest }
  /**
   * What a leader sends carries its tab and its epoch (when it began to lead; a later leader's is higher). A follower
   * heeds the highest epoch it has heard: a leader whose tab is closing may still talk after the next one took over.
   */
  | { t: 'res'; from: string; epoch: number; to: string; id: string; res: IpcResponse<unknown> }
  | { t: 'leader'; tabId: string; epoch: number }
  | { t: 'change'; from: string; epoch: number; method: Method; at: number; sessions?: SessionChangeSet };

export type HostRole = 'starting' | 'leader' | 'follower';

export interface HostInfo {
  tabId: string;
  role: HostRole;
  /** Known once this tab leads; followers learn it through system.status. */
  storage: StorageKind | null;
}

/** What a DB worker tells its page. */
export type HostEvent =
  /** `sessions`: the conversations the write changed (absent: none; 'many': read the list again). */
  | { type: 'change'; method: Method; at: number; sessions?: SessionChangeSet }
  | { type: 'role'; info: HostInfo }
  | { type: 'startup-failed'; error: IpcError }
  /** This tab leads but the database file is still held elsewhere: opening goes on (DB_UNAVAILABLE meanwhile). */
  | { type: 'waiting'; error: IpcError };

export const LOCK_NAME = 'engram-db-leader';
export const CHANNEL_NAME = 'engram-db-relay';
