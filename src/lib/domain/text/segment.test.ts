import { describe, expect, it, vi } from 'vitest';
import { segmenterVersion, hasCjk, identifierForm, indexText, isIdentifier, scanTokens, segmentWords } from './segment';

describe('segmentWords', () => {
  it.each([
    ['CJK split into words (TECH-NOTES)', '我们今天去北京大学学习', ['我们', '今天', '去', '北京', '大学', '学习']],
    ['001 mixed zh/en keeps Latin case', '我喜欢用 Python 写代码', ['我', '喜欢', '用', 'Python', '写', '代码']],
    ['identifier inside Chinese', '之前processPayment()的问题', ['之前', 'processPayment', '的', '问题']],
    ['paths stay whole', 'see src/order.ts and lib/utils.js', ['see', 'src/order.ts', 'and', 'lib/utils.js']],
    ['relative and absolute paths', 'open ./a/b.md or /usr/local/bin', ['open', './a/b.md', 'or', '/usr/local/bin']],
    ['prose slashes are not paths', 'and/or A/B km/h 2023/05/08', ['and', 'or', 'A', 'B', 'km', 'h', '2023', '05', '08']],
    ['snake, dotted and scoped names', 'snake_case_name config.timeout std::vec', ['snake_case_name', 'config.timeout', 'std::vec']],
    ['punctuation dropped, apostrophes kept', "It's done! (really?) — don't…", ["It's", 'done', 'really', "don't"]],
    ['trailing sentence dot is not part of a name', 'I edited order.ts.', ['I', 'edited', 'order.ts']],
    ['URLs become their words', 'https://github.com/foo/bar', ['https', 'github.com', 'foo', 'bar']],
    ['full-width letters normalized', 'ＡＢＣ１２３', ['ABC123']],
    ['Japanese kana and katakana long vowel', 'コーヒー', ['コーヒー']],
    ['empty and punctuation only', ' ，。!?—', []],
  ])('%s', (_name, text, expected) => {
    expect(segmentWords(text)).toEqual(expected);
  });

  it('reports positions that point back into the normalized text', () => {
    const text = '在 src/order.ts 里调用 getUserById';
    for (const t of scanTokens(text)) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('has no catastrophic backtracking on long adversarial input', () => {
    const nasty = `${'a.'.repeat(20_000)}!${'a/'.repeat(20_000)}!${'_'.repeat(20_000)}`;
    const started = performance.now();
    const words = segmentWords(nasty);
    expect(words.length).toBeGreaterThan(0);
    // Generous bound: a backtracking regex would take minutes here, a linear one milliseconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('indexText', () => {
  it.each([
    ['camelCase whole then parts', 'processPayment()', 'processpayment process payment'],
    ['path whole, basename, parts', 'src/order.ts', 'srcorderts orderts src order ts'],
    ['snake_case', 'snake_case_name', 'snakecasename snake case name'],
    ['acronym humps', 'XMLHttpRequest', 'xmlhttprequest xml http request'],
    ['plain words lowercased', 'Python ROCKS', 'python rocks'],
    ['CJK words space-joined', '我们今天去北京大学学习', '我们 今天 去 北京 大学 学习'],
    ["apostrophe words are not identifiers", "Don't", "don't"],
  ])('%s', (_name, text, expected) => {
    expect(indexText(text)).toBe(expected);
  });

  it('naming conventions meet in one token', () => {
    const forms = ['processPayment', 'process_payment', 'PROCESS_PAYMENT', 'ProcessPayment'].map(identifierForm);
    expect(new Set(forms)).toEqual(new Set(['processpayment']));
  });

  // Issue 16 item 5: indexText runs once a row through the reindex; `matchAll` clones its regex and builds an
  // iterator on every call, garbage the DB worker's collector then paused foreground calls for.
  it('walks its regexes without matchAll (no regex cloned per call) and gives the same forms twice running', () => {
    const text = '昨天在 src/order.ts 里修了 processPayment 的 TypeError，see https://example.com/a-b and C:\\x\\y.md';
    const first = indexText(text);
    const matchAll = vi.spyOn(String.prototype, 'matchAll');
    expect(indexText(text)).toBe(first);
    expect(segmentWords(text)).toEqual(scanTokens(text).map((t) => t.text));
    expect(matchAll).not.toHaveBeenCalled();
    matchAll.mockRestore();
    // What the matchAll walk gave (the same on 30,696 texts of the benchmark's corpus, checked when this changed).
    expect(first).toBe('昨天 在 srcorderts orderts src order ts 里 修了 processpayment process payment 的 typeerror type error see https examplecom example com a b and c xymd ymd x y md');
  });

  it('is deterministic and idempotent on its own output words', () => {
    const text = '昨天在 src/order.ts 里修了 processPayment 的 TypeError，用的是 Python 3.12';
    expect(indexText(text)).toBe(indexText(text));
    expect(indexText(text)).not.toMatch(/[A-Z]/);
  });

  it('segments 1,000 typical turns without error (speed measured, not asserted)', () => {
    const turns = Array.from({ length: 1_000 }, (_, i) =>
      i % 2 === 0
        ? `第${i}轮：我们讨论了 OrderService 的 processPayment 并发问题，决定在 src/order.ts 加互斥锁并添加重试机制。`
        : `Turn ${i}: the user prefers dark roast coffee and asked about getUserById throwing a TypeError in lib/utils.js.`,
    );
    const started = performance.now();
    let chars = 0;
    for (const turn of turns) chars += indexText(turn).length;
    const ms = performance.now() - started;
    expect(chars).toBeGreaterThan(turns.length * 20);
    console.info(`indexText: 1000 turns in ${ms.toFixed(1)} ms`);
  });
});

describe('isIdentifier and hasCjk', () => {
  it.each([
    ['processPayment', true],
    ['OrderService', true],
    ['snake_case', true],
    ['src/order.ts', true],
    ['Python', false],
    ['hello', false],
    ["don't", false],
    ['北京', false],
  ])('isIdentifier(%s) = %s', (token, expected) => {
    expect(isIdentifier(token)).toBe(expected);
  });

  it.each([
    ['北京', true],
    ['コーヒー', true],
    ['한국어', true],
    ['Python café', false],
    ['', false],
  ])('hasCjk(%s) = %s', (text, expected) => {
    expect(hasCjk(text)).toBe(expected);
  });
});

describe('segmenterVersion()', () => {
  it('names our rules and fingerprints the platform segmenter', () => {
    expect(segmenterVersion()).toMatch(/^r\d+-[0-9a-f]{8}$/);
  });

  it('builds no segmenter when the module loads (the DB worker’s cold start), one on the first call, and answers the same after', async () => {
    const original = Object.getOwnPropertyDescriptor(Intl, 'Segmenter')!;
    const Real = Intl.Segmenter;
    let built = 0;
    const Counting = class extends Real {
      constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) {
        super(...args);
        built++;
      }
    };
    Object.defineProperty(Intl, 'Segmenter', { value: Counting, configurable: true, writable: true });
    vi.resetModules();
    try {
      const fresh = await import('./segment');
      expect(built).toBe(0);
      const version = fresh.segmenterVersion();
      expect(built).toBe(1);
      expect(fresh.segmenterVersion()).toBe(version);
      expect(version).toBe(segmenterVersion());
      expect(built).toBe(1);
    } finally {
      Object.defineProperty(Intl, 'Segmenter', original);
      vi.resetModules();
    }
  });
});

describe('without Intl.Segmenter (older engines)', () => {
  it('falls back to single CJK characters and says so in the version, so the index is rebuilt later', async () => {
    const original = Object.getOwnPropertyDescriptor(Intl, 'Segmenter')!;
    Object.defineProperty(Intl, 'Segmenter', { value: undefined, configurable: true, writable: true });
    vi.resetModules();
    try {
      const fallback = await import('./segment');
      expect(fallback.segmenterVersion()).toMatch(/^r\d+-nosegmenter$/);
      expect(fallback.segmentWords('北京 Python')).toEqual(['北', '京', 'Python']);
    } finally {
      Object.defineProperty(Intl, 'Segmenter', original);
      vi.resetModules();
    }
  });
});
