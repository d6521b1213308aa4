import type { Clock, IdGen } from '../domain/clock';
import type { Logger } from '../domain/log';
import type { StorageKind } from './protocol/types';
import type { SqlDriver } from './store/driver';

/** What every handler factory receives. */
export interface EngineEnv {
  readonly driver: SqlDriver;
  readonly clock: Clock;
  readonly ids: IdGen;
  readonly log: Logger;
  readonly storage: { kind: StorageKind; reason: string | null };
  readonly startedAt: number;
}
