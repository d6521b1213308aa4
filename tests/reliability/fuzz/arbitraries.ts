/**
 * Issue 13, reliability suite — fuzz: the inputs. Every call's zod schema is walked to build inputs of
 * roughly the right shape whose values are hostile (huge, empty, FTS5 syntax, unicode, lone surrogates,
 * prototype-pollution keys, wrong types, ids that exist), mixed with fully random values (fc.anything).
 */
import fc from 'fast-check';
import type { z } from 'zod';

/** Ids of rows that exist, so an input sometimes reaches past "not found". */
export interface KnownIds {
  strings: string[];
  numbers: number[];
}

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // any code point, lone surrogates included
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    'a\udfffb',
    '🦊'.repeat(30),
    '"unterminated',
    'NEAR(a b, -1)',
    'a OR b AND NOT c',
    '* ^ : - +',
    'col:term',
    '(((',
    '"a" "b"*',
    "'; DROP TABLE memories; --",
    '%_\\',
    '../../etc/passwd',
    '.engram/../../x.md',
    'C:\\\\windows',
    '<script>window.__pwned=1</script>',
    'javascript:alert(1)',
    '__proto__',
    'constructor',
    '{not json',
    '[1,2,3]',
    '{"layers":"all"}',
    'run-chat',
    'global',
    'project',
    'merge',
    'replace',
    'en',
    'zh-CN',
  ),
  fc.nat({ max: 300_000 }).map((n) => 'x'.repeat(n)), // up to past the largest declared limit
  fc.nat({ max: 5_000 }).map((n) => '长'.repeat(n)),
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1, 2, 3, 50, 999_999, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53 + 2, 1e308, NaN, Infinity, -Infinity, 0.5),
);

/** Any value, including objects with prototype-pollution keys. */
export const anything: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 3,
  maxKeys: 6,
  key: fc.oneof(fc.string(), fc.constantFrom(...POLLUTION_KEYS)),
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withTypedArray: true,
  withSparseArray: true,
  withBoxedValues: true,
});

/** A small value of the wrong type for wherever it lands. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, undefined, true, false, [], {}, [null], { __proto__: { polluted: true } }),
  hostileNumber,
  hostileString,
  fc.constant(JSON.parse('{"__proto__":{"polluted":true}}') as unknown),
);

export const blob = (text: fc.Arbitrary<string>): fc.Arbitrary<Blob> => text.map((t) => new Blob([t]));

/** A file arbitrary: random JSON text, random bytes, or hostile text. */
export const randomFile: fc.Arbitrary<Blob> = fc.oneof(
  blob(fc.json({ maxDepth: 4 })),
  blob(hostileString),
  fc.uint8Array({ maxLength: 2048 }).map((b) => new Blob([b])),
);

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { def: Def }).def;

/**
 * An input shaped like `schema`, each value right-typed, hostile or wrong-typed; objects sometimes carry a
 * key the schema does not know (a pollution key among them).
 */
export function fromSchema(schema: z.ZodType, ids: KnownIds, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const deeper = (s: z.ZodType) => fromSchema(s, ids, depth + 1);
  const mix = (right: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: right }, { weight: 1, arbitrary: wrongType });
  if (depth > 5) return wrongType;
  switch (def.type) {
    case 'object': {
      const shape = (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
      const fields = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, deeper(v)]));
      const record = fc.record(fields, { requiredKeys: [] });
      const extra = fc.option(fc.tuple(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 8 })), anything), { freq: 8 });
      return mix(
        fc.tuple(record, extra).map(([r, e]) => {
          if (e) Object.defineProperty(r, e[0], { value: e[1], enumerable: true, configurable: true, writable: true });
          return r;
        }),
      );
    }
    case 'string':
      return mix(fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: ids.strings.length ? fc.constantFrom(...ids.strings) : hostileString }));
    case 'number':
    case 'int':
      return mix(fc.oneof(hostileNumber, ids.numbers.length ? fc.constantFrom(...ids.numbers) : hostileNumber));
    case 'boolean':
      return mix(fc.boolean());
    case 'enum':
      return mix(fc.oneof(fc.constantFrom(...Object.values(def.entries as Record<string, string>)), hostileString));
    case 'literal':
      return mix(fc.constantFrom(...(def.values as unknown[])));
    case 'array':
      return mix(fc.array(deeper(def.element as z.ZodType), { maxLength: 6 }));
    case 'tuple':
      return mix(fc.tuple(...(def.items as z.ZodType[]).map(deeper)));
    case 'record':
      return mix(fc.dictionary(fc.oneof(hostileString, fc.constantFrom(...POLLUTION_KEYS)), deeper(def.valueType as z.ZodType), { maxKeys: 4 }));
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map(deeper));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return fc.oneof({ weight: 4, arbitrary: deeper(def.innerType as z.ZodType) }, { weight: 1, arbitrary: fc.constantFrom(undefined, null) });
    case 'pipe':
      return deeper(def.in as z.ZodType);
    case 'lazy':
      return deeper((def.getter as () => z.ZodType)());
    case 'custom':
      return fc.oneof(randomFile, wrongType); // the only custom schemas are files (Blob)
    default:
      return anything; // unknown, any, and kinds this walker does not model
  }
}

/** The cases of one call: mostly shaped like its schema, some entirely random. */
export function inputsFor(schema: z.ZodType, ids: KnownIds): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: fromSchema(schema, ids) }, { weight: 1, arbitrary: anything }, { weight: 1, arbitrary: wrongType });
}
