import { describe, expect, it } from 'vitest';
import { extractSymbols, querySymbols, type SymbolKind } from './symbols';

type Expected = [symbol: string, kind: SymbolKind][];

const sorted = (list: Expected) => [...list].sort((a, b) => a[0].localeCompare(b[0]));

describe('extractSymbols (002 REQ-LTM-006)', () => {
  it.each<[string, string, Expected]>([
    // 002's own examples, one per kind
    ['functions', 'processOrder calls getUserById first', [['processOrder', 'function'], ['getUserById', 'function']]],
    ['classes', 'OrderService delegates to PaymentHandler', [['OrderService', 'class'], ['PaymentHandler', 'class']]],
    ['files', 'see src/service.ts and lib/utils.js', [['src/service.ts', 'file'], ['lib/utils.js', 'file']]],
    ['variables in backticks', 'check `config`, `options` and `result`', [['config', 'variable'], ['options', 'variable'], ['result', 'variable']]],
    ['error types', 'a TypeError, then a NetworkError', [['TypeError', 'error'], ['NetworkError', 'error']]],
    // zh prose
    ['zh: identifier in a question', '之前 processPayment 的问题解决了吗', [['processPayment', 'function']]],
    ['zh: no spaces around the name', '之前processPayment的问题', [['processPayment', 'function']]],
    ['zh: class in SC-LTM-004', '继续昨天的 CacheManager 实现', [['CacheManager', 'class']]],
    ['zh: common variable names in Chinese prose', '把 config 改一下，result 是空的', [['config', 'variable'], ['result', 'variable']]],
    ['zh: file and error', '在 src/order.ts 里报了 TypeError', [['src/order.ts', 'file'], ['TypeError', 'error']]],
    ['zh: errno code', '启动时报 ECONNREFUSED', [['ECONNREFUSED', 'error']]],
    // code context
    ['member access makes a variable', 'set config.timeout to 5000', [['config', 'variable']]],
    ['method call reports method and receiver', 'then orderService.processOrder() fails', [['orderService', 'variable'], ['processOrder', 'function']]],
    ['plain name called in prose', 'did you run init() first?', [['init', 'function']]],
    ['assignment in prose', 'result = fetchAll(items)', [['result', 'variable'], ['fetchAll', 'function']]],
    ['snake and screaming case', 'use MAX_RETRIES and user_id, then call process_order()', [['MAX_RETRIES', 'variable'], ['user_id', 'variable'], ['process_order', 'function']]],
    ['camelCase without a verb is a variable', 'the userId was empty', [['userId', 'variable']]],
    ['bare file names', 'edit package.json and README.md, not the Dockerfile', [['package.json', 'file'], ['README.md', 'file'], ['Dockerfile', 'file']]],
    ['relative and absolute paths', 'compare ./scripts/build.sh with /etc/hosts', [['./scripts/build.sh', 'file'], ['/etc/hosts', 'file']]],
    ['python declarations', '```py\ndef load_user(uid):\n    return db.get(uid)\n```', [['load_user', 'function'], ['db', 'variable']]],
    ['js declarations and calls in a block', '```ts\nconst config = loadConfig();\nclass CacheManager extends BaseCache {}\nconsole.log(config);\n```', [['config', 'variable'], ['loadConfig', 'function'], ['CacheManager', 'class'], ['BaseCache', 'class']]],
    ['arrow function assigned to a const', '```js\nconst handleClick = (e) => submit(e)\n```', [['handleClick', 'function'], ['submit', 'function']]],
    ['inline PascalCase single hump', 'the `Order` type', [['Order', 'class']]],
    ['new makes a class in code', '`new Invoice(total)`', [['Invoice', 'class']]],
    // negatives
    ['capitalised sentence start is not a class', 'The Service was great', []],
    ['title case is not code', 'I Like Python', []],
    ['ordinary English words are not variables', 'the result was good and the config looked fine', []],
    ['products, brands and surnames', 'I love JavaScript on my iPhone; McDonald and LeBron use GitHub', []],
    ['library names ending in .js', 'we moved from Node.js to Deno', []],
    ['web sites are not member access', 'see example.com for details', []],
    ['URLs are not files', 'https://github.com/foo/bar.ts is the repo', []],
    ['initialisms and numbers', 'i.e. e.g. U.S.A. 3.14 v2.0', []],
    ['acronym plurals', 'two APIs and three URLs', []],
    ['prose words before "(s)" or " ("', 'bring the file(s) and the (optional) notes', []],
    ['"class" and "type" in prose are not declarations', 'My class schedule is the type of thing I like', []],
    ['Chinese alone', '我们今天去北京大学学习', []],
    ['builtins and globals', 'just console.log(x) and JSON.stringify(y)', []],
  ])('%s', (_name, text, expected) => {
    const got = extractSymbols(text).map((s): [string, SymbolKind] => [s.symbol, s.kind]);
    expect(sorted(got)).toEqual(sorted(expected));
  });

  it('relevance: declared > code-formatted > shape alone > common name in Chinese prose, all within 0..1', () => {
    const text = '```ts\nfunction processOrder() {}\n```\n再看 `validateOrder` 和 checkOrder，还有 config 的值';
    const rel = Object.fromEntries(extractSymbols(text).map((s) => [s.symbol, s.relevance]));
    expect(rel.processOrder).toBeGreaterThan(rel.validateOrder!);
    expect(rel.validateOrder).toBeGreaterThan(rel.checkOrder!);
    expect(rel.checkOrder).toBeGreaterThan(rel.config!);
    for (const r of Object.values(rel)) expect(r).toBeGreaterThanOrEqual(0), expect(r).toBeLessThanOrEqual(1);
  });

  it('repeated mentions raise relevance and collapse into one entry', () => {
    const once = extractSymbols('processPayment failed');
    const thrice = extractSymbols('processPayment failed; processPayment retried; processPayment ok');
    expect(thrice).toHaveLength(1);
    expect(thrice[0]!.relevance).toBeGreaterThan(once[0]!.relevance);
  });

  it('keeps the best mention when a symbol is seen several ways', () => {
    const [sym] = extractSymbols('config looked odd.\n```js\nconst config = load()\n```');
    expect(sym).toMatchObject({ symbol: 'config', kind: 'variable', relevance: 0.9 });
  });

  it('context: at most 32 code points around the first mention (002: an index entry under ~100 B), whitespace collapsed', () => {
    const long = `${'前文很长的一段话，'.repeat(20)}这里提到 processPayment\n\n  函数${'，后面还有很多内容'.repeat(20)}`;
    const [sym] = extractSymbols(long);
    expect(sym?.symbol).toBe('processPayment');
    expect(Array.from(sym!.context).length).toBeLessThanOrEqual(32);
    expect(sym!.context).toContain('这里提到 processPayment 函数');
  });

  it('stays linear on adversarial input (backticks, dotted chains, one 40,000-letter word)', () => {
    const nasty = ['`'.repeat(40_000), 'a`'.repeat(20_000), 'a.'.repeat(20_000) + '(', 'a-'.repeat(20_000), 'http'.repeat(10_000)];
    const started = performance.now();
    for (const text of nasty) extractSymbols(text);
    // Generous: the linear scan takes milliseconds; a quadratic regex takes minutes here.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('handles empty text and long input without blowing up', () => {
    expect(extractSymbols('')).toEqual([]);
    const big = 'call processOrder() on src/a.ts; '.repeat(2_000);
    expect(extractSymbols(big).map((s) => s.symbol)).toEqual(['processOrder', 'src/a.ts']);
  });
});

describe('querySymbols', () => {
  it.each<[string, string[]]>([
    ['之前 processPayment 的问题解决了吗', ['processPayment']],
    ['processPayment 函数的问题', ['processPayment']],
    ['之前讨论的 OrderService 问题', ['OrderService']],
    ['where is config set?', ['config']],
    ['what did the user say about coffee?', []],
    ['src/order.ts 里的 TypeError', ['src/order.ts', 'TypeError']],
  ])('%s', (query, expected) => {
    expect(querySymbols(query)).toEqual(expected);
  });
});
