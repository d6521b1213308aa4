import { DAY_MS } from '../clock';

/**
 * 003 存储预算 / 存储策略与淘汰机制执行细则 / Capacity, as the seed's Owner fixed them (not settings):
 *
 *   episodes (uncompressed)   180-day TTL → compression queue; beyond the newest 1,000 of a project → compressed
 *   compressed episodes       365-day TTL → deleted; beyond 5,000 of a project or 50,000 in all → deleted (LRU)
 *   episodes of a project     10,000 in all: a write at the cap first deletes expired (>180 days), then the
 *                             least recently used — checked synchronously before the write, which still succeeds
 *   learned rules             200 per scope and 500 per project, the lowest confidence evicted first;
 *                             user-confirmed (and pinned) rules never
 *
 * Pinned items ("keep this" from the forgetting ledger) are never compressed, purged or evicted.
 */
export const EPISODE_TTL_MS = 180 * DAY_MS;
export const COMPRESSED_TTL_MS = 365 * DAY_MS;
export const ACTIVE_EPISODES_PER_PROJECT = 1_000;
export const COMPRESSED_PER_PROJECT = 5_000;
export const COMPRESSED_IN_ALL = 50_000;
export const EPISODES_PER_PROJECT = 10_000;
export const RULES_PER_SCOPE = 200;
export const RULES_PER_PROJECT = 500;
/** Ledger rows of deleted items stay this long after the deletion (then the monthly purge removes them). */
export const LEDGER_KEEP_MS = 90 * DAY_MS;
/** 003 清理调度: decay daily (and at start-up), compression weekly, purge monthly. */
export const DECAY_EVERY_MS = DAY_MS;
export const COMPRESS_EVERY_MS = 7 * DAY_MS;
export const PURGE_EVERY_MS = 30 * DAY_MS;
