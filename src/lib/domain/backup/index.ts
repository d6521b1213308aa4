/**
 * The backup format (issue 6): pure code shared by the browser engine and the Node host.
 *
 *   tables.ts (ONE list) ─▶ format.ts (zod envelope) ─▶ validate.ts ◀─ migrate-format.ts ◀─ safe-json.ts ◀─ sniff.ts
 *                                    json-splitter.ts (a file piece by piece) ─▶ export-collector.ts ─┘
 *                                    └─▶ canonical.ts (round-trip dumps) · diff.ts (add/update/skip/conflict)
 */
export * from './canonical';
export * from './columns';
export * from './diff';
export * from './export-collector';
export * from './format';
export * from './json-splitter';
export * from './limits';
export * from './migrate-format';
export * from './safe-json';
export * from './size';
export * from './sniff';
export * from './table-spec';
export * from './tables';
export * from './validate';
