export type { ClearAllReport } from './clear-all';
export type { ClearLogEntry } from './clear-log';
