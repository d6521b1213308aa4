import type { Method, Output, Parsed } from '../protocol/contract';
import type { Services } from '../services';
import type { TwoStep } from '../protocol/define';
import { backupHandlers } from './backup';
import { embeddingHandlers } from './embeddings';
import { contextHandlers } from './context';
import { contextFileHandlers } from './context-files';
import { learningHandlers } from './learning';
import { importHandlers } from './imports';
import { eraseHandlers } from './erase';
import { conversationHandlers } from './conversations';
import { recallHandlers } from './recall';
import { maintenanceHandlers } from './maintenance';
import { memoryHandlers } from './memory';
import { settingsHandlers } from './settings';
import { storageHandlers } from './storage';
import { systemHandlers } from './system';
import { turnHandlers } from './turns';
import { lifecycleHandlers } from './lifecycle';
import { clearingHandlers } from './clearing';

/** A `twoStep` call's handler returns its two steps (protocol/define.ts). */
export type Handler<M extends Method> = (input: Parsed<M>) => Output<M> | Promise<Output<M>> | TwoStep<unknown, Output<M>>;
export type HandlerMap = { [M in Method]: Handler<M> };
export type Handlers<K extends Method> = { [M in K]: Handler<M> };

/** Every call of the contract has exactly one handler; the type makes a missing one a compile error. */
export function handlerSet(services: Services): HandlerMap {
  const { env } = services;
  return {
    ...systemHandlers(env),
    ...settingsHandlers(env),
    ...maintenanceHandlers(env),
    // conversations (issue 3)
    ...conversationHandlers(services),
    ...recallHandlers(services),
    // memory (issue 4)
    ...memoryHandlers(services),
    // context (issue 5)
    ...contextHandlers(services),
    ...contextFileHandlers(services),
    // writing memory that learns (issue 17)
    ...learningHandlers(services),
    // backup (issue 6)
    ...backupHandlers(services),
    // storage (issue 13)
    ...storageHandlers(env),
    // imports from other apps, Markdown exports (issue 14)
    ...importHandlers(services),
    // meaning-based recall (issue 18)
    ...embeddingHandlers(services),
    // erase everything on this device (issue 15)
    ...eraseHandlers(services),
    // turns (issue 16)
    ...turnHandlers(services),
    // memory that forgets on purpose (issue 19)
    ...lifecycleHandlers(services),
    // clearing that means it (issue 19)
    ...clearingHandlers(services),
  };
}
