import type { IpcError, IpcResponse } from '../../domain/errors';
import type { EngineRequest } from '../engine';
import type { Method } from '../protocol/contract';
import type { StorageKind } from '../protocol/types';

/** Messages between the DB workers of several tabs, over one BroadcastChannel. */
export type RelayMessage =
  | { t: 'req'; from: string; id: string; req: EngineRequest }
  | { t: 'res'; to: string; id: string; res: IpcResponse<unknown> }
  | { t: 'leader'; tabId: string }
  | { t: 'change'; method: Method; at: number };

export type HostRole = 'starting' | 'leader' | 'follower';

export interface HostInfo {
  tabId: string;
  role: HostRole;
  /** Known once this tab leads; followers learn it through system.status. */
  storage: StorageKind | null;
}

/** What a DB worker tells its page. */
export type HostEvent =
  | { type: 'change'; method: Method; at: number }
  | { type: 'role'; info: HostInfo }
  | { type: 'startup-failed'; error: IpcError }
  /** This tab leads but the database file is still held elsewhere: opening goes on (DB_UNAVAILABLE meanwhile). */
  | { type: 'waiting'; error: IpcError };

export const LOCK_NAME = 'engram-db-leader';
export const CHANNEL_NAME = 'engram-db-relay';
