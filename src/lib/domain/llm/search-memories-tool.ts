import { z } from 'zod';
import { DAY_MS, type Clock } from '../clock';
import { EngineError } from '../errors';
import { parseOrThrow } from '../validation';
import type { Tool } from './tools';
import type { ToolSpec } from './types';

/**
 * Seed 000 "可选主动 RAG 工具": with memory.enable_agentic_search on, the model may call
 * search_memories(keyword, timeRange?) and the app answers with MemoryService.SearchMemories. This file
 * fixes the tool's shape; the caller supplies the search itself.
 */
export const SEARCH_MEMORIES = 'search_memories';

export const searchMemoriesSpec: ToolSpec = {
  name: SEARCH_MEMORIES,
  description:
    "Search the user's long-term memories (preferences, facts, past decisions) by keyword. Use it when the answer may depend on something the user told you before.",
  parameters: {
    type: 'object',
    properties: {
      keyword: { type: 'string', description: 'One or a few words to search for, in the language the memory was written in.' },
      timeRange: {
        type: 'object',
        description: 'Optional: only memories created in this range.',
        properties: {
          from: { type: 'string', description: 'Start date, ISO 8601 (e.g. 2025-01-31), inclusive.' },
          to: { type: 'string', description: 'End date, ISO 8601, inclusive.' },
        },
      },
    },
    required: ['keyword'],
  },
};

const isoDate = z.string().refine((s) => !Number.isNaN(parseDate(s, 'start')), 'expected an ISO 8601 date such as 2025-01-31');
/** Small models often answer with a phrase instead of an object: the common ones are accepted. */
const PRESETS = { today: 1, last_7_days: 7, last_30_days: 30, last_year: 365 } as const;

export const searchMemoriesArgsSchema = z.object({
  keyword: z.string().trim().min(1).max(200),
  timeRange: z
    .union([z.object({ from: isoDate.nullish(), to: isoDate.nullish() }), z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS])])
    .nullish(),
});

export interface SearchMemoriesQuery {
  keyword: string;
  /** Inclusive bounds in epoch milliseconds, when the model gave them. */
  fromMs?: number;
  toMs?: number;
}

/** Arguments as the model sent them → a query. Invalid → INVALID_ARGUMENT naming the field (read by the model). */
export function toSearchQuery(args: unknown, clock: Clock): SearchMemoriesQuery {
  const parsed = parseOrThrow(searchMemoriesArgsSchema, args, SEARCH_MEMORIES);
  const query: SearchMemoriesQuery = { keyword: parsed.keyword };
  const range = parsed.timeRange;
  if (typeof range === 'string') {
    query.fromMs = clock.now() - PRESETS[range] * DAY_MS;
    query.toMs = clock.now();
  } else if (range) {
    if (range.from) query.fromMs = parseDate(range.from, 'start');
    if (range.to) query.toMs = parseDate(range.to, 'end');
  }
  if (query.fromMs !== undefined && query.toMs !== undefined && query.fromMs > query.toMs) {
    throw new EngineError('INVALID_ARGUMENT', `Invalid \`${SEARCH_MEMORIES}.timeRange\`: \`from\` is after \`to\``, {
      fields: [`${SEARCH_MEMORIES}.timeRange`],
    });
  }
  return query;
}

/** A date-only value covers its whole (UTC) day: 'from' its first millisecond, 'to' its last. */
function parseDate(s: string, edge: 'start' | 'end'): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const start = Date.parse(`${s}T00:00:00Z`);
    return edge === 'start' ? start : start + DAY_MS - 1;
  }
  return /^\d{4}-\d{2}-\d{2}T/.test(s) ? Date.parse(s) : Number.NaN;
}

/** The tool for runWithTools, around the app's own search. */
export function createSearchMemoriesTool(opts: { clock: Clock; search(query: SearchMemoriesQuery, signal?: AbortSignal): Promise<unknown> }): Tool {
  return {
    spec: searchMemoriesSpec,
    run: (args, signal) => opts.search(toSearchQuery(args, opts.clock), signal),
  };
}
