/**
 * The shape rules of symbol extraction (002 REQ-LTM-006): what a name looks like, independent of where it stands.
 * Context (code spans, calls, definitions) is judged in symbols.ts.
 */
import { identifierParts } from './segment';
import { ERRNO_NAMES, NOT_CODE_NAMES, SURNAME_PREFIXES, VERB_PREFIXES } from './symbol-lexicon';

export type SymbolKind = 'function' | 'class' | 'file' | 'variable' | 'error';

export type Shape = 'error' | 'pascal' | 'camel' | 'snake' | 'screaming' | 'capitalized' | 'plain' | 'other';

const ERROR_TYPE = /^[A-Z][A-Za-z0-9]*(?:Error|Exception)$/;
// Quantifiers never overlap ([a-z]{2} then [a-z0-9]*): a 20,000-letter word must not backtrack quadratically.
const CAMEL = /^[a-z]{2}[a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_+[a-z0-9]+)+$/;
const SCREAMING = /^[A-Z][A-Z0-9]*(?:_+[A-Z0-9]+)+$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*$/;
const PLAIN = /^[a-z][a-z0-9]*$/;
const ACRONYM_PLURAL = /^[A-Z]{2,}s$/;
const HUMP = /[a-z0-9][A-Z]|[A-Z]{2}[a-z]/;

/** The first hump keeps its case, so `Mc` in McGee can be compared with SURNAME_PREFIXES. */
function humps(name: string): string[] {
  return name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [];
}

/** Products, brands and surnames (JavaScript, iPhone, McGee) look like code but are not. */
export function isNotCode(name: string): boolean {
  if (NOT_CODE_NAMES.has(name.toLowerCase())) return true;
  const h = humps(name);
  return h.length === 2 && SURNAME_PREFIXES.has(h[0] ?? '');
}

export function shapeOf(name: string): Shape {
  if ((ERROR_TYPE.test(name) && name.length >= 7) || ERRNO_NAMES.has(name)) return 'error';
  if (SCREAMING.test(name)) return 'screaming';
  if (SNAKE.test(name)) return 'snake';
  if (CAMEL.test(name)) return 'camel';
  if (PASCAL.test(name) && HUMP.test(name) && /[a-z]/.test(name) && !ACRONYM_PLURAL.test(name)) return 'pascal';
  if (PASCAL.test(name)) return 'capitalized';
  if (PLAIN.test(name)) return 'plain';
  return 'other';
}

/** Shapes that are code wherever they stand (OrderService, processOrder, user_id, MAX_RETRIES, TypeError). */
export function isStrongShape(shape: Shape): boolean {
  return shape === 'error' || shape === 'pascal' || shape === 'camel' || shape === 'snake' || shape === 'screaming';
}

/** getUserById, process_order: a leading verb makes a function; userId, order_total stay variables. */
export function startsWithVerb(name: string): boolean {
  const parts = identifierParts(name);
  return parts.length > 1 && VERB_PREFIXES.has(parts[0] ?? '');
}

/** The kind a name has by its shape alone, or null when its shape says nothing. */
export function kindOfShape(name: string, shape: Shape): SymbolKind | null {
  switch (shape) {
    case 'error':
      return 'error';
    case 'pascal':
      return 'class';
    case 'camel':
    case 'snake':
      return startsWithVerb(name) ? 'function' : 'variable';
    case 'screaming':
      return 'variable';
    default:
      return null;
  }
}
