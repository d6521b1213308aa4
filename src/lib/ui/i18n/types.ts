/** A translation must have exactly the English shape, with strings for leaves. */
export type Messages<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };

/**
 * 'a.b.c' for every leaf of a message tree. A plural leaf (`turns_one`, `turns_other`: i18next's
 * plural forms) is also called by its base key with a `count` (`t('chat:sessions.turns', { count })`).
 */
export type LeafKeys<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` | `${P}${PluralBase<K>}` : LeafKeys<T[K], `${P}${K}.`>;
}[keyof T & string];

type PluralBase<K extends string> = K extends `${infer B}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? B : never;
