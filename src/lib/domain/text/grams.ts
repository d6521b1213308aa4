/**
 * Overlapping character pairs of CJK text (issue 8, MADial): a word segmenter splits 跳舞 and 舞蹈 into different
 * words, and a memory "在学校晚会上唱歌" shares no word with "晚会我要上台", yet both hold 晚会. Pairs of
 * adjacent characters meet wherever the wording overlaps, the way FTS baselines index Chinese (bigrams).
 *
 * Only CJK runs produce pairs; Latin text is left to the word index. A one-character run is kept whole.
 */
const CJK_RUN = /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}]+/gu;

export function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').matchAll(CJK_RUN)) {
    const chars = [...m[0]];
    if (chars.length === 1) out.push(chars[0] as string);
    for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
  }
  return out;
}

/** The `grams` column of an FTS table: the pairs, space-joined (unicode61 keeps each pair one token). */
export function gramsText(text: string): string {
  return cjkBigrams(text).join(' ');
}

/** Pairs worth matching: not made only of stop characters (的了吗…), de-duplicated, at most `max`. */
export function queryBigrams(text: string, opts: { max: number; stop: (gram: string) => boolean }): string[] {
  const seen = new Set<string>();
  for (const g of cjkBigrams(text)) {
    if (seen.size >= opts.max) break;
    if (!opts.stop(g)) seen.add(g);
  }
  return [...seen];
}

/**
 * An FTS5 MATCH for the pairs in one column: `grams : ("晚会" OR "表演")`, or null. Each pair is quoted (no FTS5
 * syntax can pass) and matched whole — never re-segmented, because the column holds the pairs as written.
 */
export function gramsMatchQuery(grams: readonly string[], column = 'grams'): string | null {
  const terms = [...new Set(grams)].filter((g) => /^[^\s"]+$/u.test(g)).map((g) => `"${g}"`);
  return terms.length ? `${column} : (${terms.join(' OR ')})` : null;
}
