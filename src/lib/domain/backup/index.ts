/**
 * The backup format (issue 6): pure code shared by the browser engine and the Node host.
 *
 *   tables.ts (ONE list) ─▶ format.ts (zod envelope) ─▶ validate.ts ◀─ migrate-format.ts ◀─ safe-json.ts ◀─ sniff.ts
 *                                    └─▶ canonical.ts (round-trip dumps) · diff.ts (add/update/skip/conflict)
 */
export * from './canonical';
export * from './columns';
export * from './diff';
export * from './format';
export * from './limits';
export * from './migrate-format';
export * from './safe-json';
export * from './sniff';
export * from './table-spec';
export * from './tables';
export * from './validate';
