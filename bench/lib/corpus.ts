import { createPrng, type Prng } from './prng';
import * as V from './corpus-vocab';

/**
 * A deterministic chat corpus for the speed benchmark: sessions of alternating user/assistant turns in Chinese,
 * English or both, about code (function, class, file, error and constant names) and life. The same seed gives the
 * same turns in Node and in the browser, so the native and wasm runs store identical rows. Turn n does not depend
 * on how many turns are asked for: a 1,000-turn corpus is the first 1,000 turns of the 100,000-turn one.
 */
export interface CorpusTurn {
  /** 0-based session number; a new number starts a new conversation. */
  session: number;
  role: 'user' | 'assistant';
  content: string;
}

export type QueryKind = 'symbol' | 'zh' | 'en' | 'mixed';

export interface CorpusQuery {
  kind: QueryKind;
  text: string;
}

type Lang = 'zh' | 'en' | 'mixed';

const camel = (r: Prng) => `${r.pick(V.VERBS)}${r.pick(V.NOUNS)}`;
const pascal = (r: Prng) => `${r.pick(V.NOUNS)}${r.pick(V.CLASS_SUFFIXES)}`;
const file = (r: Prng) => `${r.pick(V.FOLDERS)}/${r.pick(V.NOUNS).toLowerCase()}-${r.pick(V.VERBS)}.${r.pick(V.EXTENSIONS)}`;

/** Any kind of code symbol, weighted towards functions and classes as in real chats. */
export function symbolOf(r: Prng): string {
  const roll = r.next();
  if (roll < 0.45) return camel(r);
  if (roll < 0.7) return pascal(r);
  if (roll < 0.82) return file(r);
  if (roll < 0.92) return r.pick(V.ERRORS);
  return r.pick(V.CONSTANTS);
}

function codeBlock(r: Prng): string {
  const fn = camel(r);
  const cls = pascal(r);
  return [
    '```ts',
    `export async function ${fn}(input: ${r.pick(V.NOUNS)}): Promise<void> {`,
    `  const store = new ${cls}();`,
    `  if (input.retries > ${r.pick(V.CONSTANTS)}) throw new ${r.pick(V.ERRORS)}('${r.pick(V.VERBS)} failed');`,
    `  await store.${camel(r)}(input);`,
    '}',
    '```',
  ].join('\n');
}

function userTurn(r: Prng, lang: Lang): string {
  const s = symbolOf(r);
  const zh = lang === 'zh' || (lang === 'mixed' && r.chance(0.5));
  if (r.chance(0.12)) return zh ? `${r.pick(V.LIFE_ZH)}，${r.pick(V.FILLER_ZH)}` : `${r.pick(V.LIFE_EN)}. ${r.pick(V.FILLER_EN)}`;
  if (zh) {
    return r.pick([
      `${s} 在${r.pick(V.TOPICS_ZH)}的时候报错了，怎么办？`,
      `帮我看看 ${file(r)} 里的 ${camel(r)} 为什么这么慢。`,
      `我们之前讨论过${r.pick(V.TOPICS_ZH)}，结论是什么？`,
      `把 ${camel(r)} 改名成 ${camel(r)} 会影响 ${pascal(r)} 吗？`,
      `${r.pick(V.FILLER_ZH)}${s} 还是返回空值。`,
    ]);
  }
  return r.pick([
    `How do I fix ${s} when ${r.pick(V.TOPICS_EN)} fails?`,
    `Can you explain why ${camel(r)} returns null in ${file(r)}?`,
    `What did we decide about ${r.pick(V.TOPICS_EN)}?`,
    `Should ${pascal(r)} call ${camel(r)} before ${camel(r)}?`,
    `${r.pick(V.FILLER_EN)} ${s} still throws ${r.pick(V.ERRORS)}.`,
  ]);
}

function assistantTurn(r: Prng, lang: Lang): string {
  const zh = lang === 'zh' || (lang === 'mixed' && r.chance(0.5));
  const parts: string[] = [];
  const sentences = r.int(2, 6);
  for (let i = 0; i < sentences; i++) {
    if (zh) {
      parts.push(
        r.pick([
          `问题在于 ${camel(r)} 在 ${camel(r)} 完成之前就被调用了。`,
          `建议把${r.pick(V.TOPICS_ZH)}相关的逻辑移到 ${pascal(r)} 里。`,
          `${file(r)} 里的 ${r.pick(V.CONSTANTS)} 太小，可以调大一些。`,
          `遇到 ${r.pick(V.ERRORS)} 时先重试，再记录日志。`,
          `这样${r.pick(V.TOPICS_ZH)}就不会再出现了。`,
        ]),
      );
    } else {
      parts.push(
        r.pick([
          `The issue is that ${camel(r)} runs before ${camel(r)} has finished.`,
          `I would move the ${r.pick(V.TOPICS_EN)} logic into ${pascal(r)}.`,
          `${r.pick(V.CONSTANTS)} in ${file(r)} is too low for this load.`,
          `When ${r.pick(V.ERRORS)} shows up, retry once and log the request id.`,
          `That should keep ${r.pick(V.TOPICS_EN)} from happening again.`,
        ]),
      );
    }
  }
  if (r.chance(0.3)) parts.push(`\n\n${codeBlock(r)}`);
  return parts.join(zh ? '' : ' ');
}

/** Turns 0..count-1; each turn's text depends only on the seed and its session. */
export function* generateTurns(opts: { seed: number; count: number }): Generator<CorpusTurn> {
  let produced = 0;
  for (let session = 0; produced < opts.count; session++) {
    // One PRNG per session: a session's text never depends on how long the run is.
    const r = createPrng((opts.seed * 1_000_003 + session) >>> 0);
    const length = 2 * r.int(5, 40);
    const roll = r.next();
    const lang: Lang = roll < 0.45 ? 'zh' : roll < 0.85 ? 'en' : 'mixed';
    for (let i = 0; i < length && produced < opts.count; i++, produced++) {
      const role = i % 2 === 0 ? 'user' : 'assistant';
      yield { session, role, content: role === 'user' ? userTurn(r, lang) : assistantTurn(r, lang) };
    }
  }
}

/** A fixed query set, the same at every size: per kind, `perKind` queries. */
export function generateQueries(opts: { seed: number; perKind: number }): CorpusQuery[] {
  const r = createPrng(opts.seed ^ 0x9e3779b9);
  const out: CorpusQuery[] = [];
  for (let i = 0; i < opts.perKind; i++) {
    out.push({ kind: 'symbol', text: i % 2 ? symbolOf(r) : `where did we change ${camel(r)}?` });
    out.push({ kind: 'zh', text: r.pick([`上次讨论的${r.pick(V.TOPICS_ZH)}方案`, `${r.pick(V.TOPICS_ZH)}后来怎么解决的`, r.pick(V.LIFE_ZH)]) });
    out.push({ kind: 'en', text: r.pick([`what did we decide about ${r.pick(V.TOPICS_EN)}`, `how did we fix ${r.pick(V.TOPICS_EN)}`, r.pick(V.LIFE_EN)]) });
    out.push({ kind: 'mixed', text: `${camel(r)} 的${r.pick(V.TOPICS_ZH)}问题` });
  }
  return out;
}

/** Manual memories (what memory.create stores): facts and preferences in both languages. */
export function generateMemories(opts: { seed: number; count: number }): { content: string; category: 'fact' | 'preference'; tags: string[] }[] {
  const r = createPrng(opts.seed ^ 0x85ebca6b);
  return Array.from({ length: opts.count }, (_, i) => {
    const zh = r.chance(0.5);
    const pref = r.chance(0.35);
    const content = zh
      ? pref
        ? `用户喜欢用 ${pascal(r)} 处理${r.pick(V.TOPICS_ZH)}`
        : `${r.pick(V.LIFE_ZH)}（第 ${i + 1} 条）`
      : pref
        ? `User prefers ${camel(r)} for ${r.pick(V.TOPICS_EN)}`
        : `${r.pick(V.LIFE_EN)} (note ${i + 1})`;
    return { content, category: pref ? 'preference' : 'fact', tags: [zh ? 'zh' : 'en'] };
  });
}
