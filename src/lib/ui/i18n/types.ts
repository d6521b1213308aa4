/** A translation must have exactly the English shape, with strings for leaves. */
export type Messages<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };

/** 'a.b.c' for every leaf of a message tree. */
export type LeafKeys<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : LeafKeys<T[K], `${P}${K}.`>;
}[keyof T & string];
