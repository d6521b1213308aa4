/**
 * House style, layers (docs/design/00-overview.md, STYLE "Layers"): imports only point left.
 *
 *   domain/ (pure)  ◀──  engine/ (SQL, worker protocol)  ◀──  ui/, routes/
 *
 * - a domain file imports only domain files and a few pure packages (no DOM, no Comlink, no SQLite);
 * - an engine file never imports ui/ or routes/.
 * Test files beside the code may use test tools and fixtures; what they import is not shipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = __dirname;
const ROOT = resolve(LIB, '..', '..');

/** Packages pure domain code may use: validation, token counting, edit distance, diffs, name-based ids. */
const DOMAIN_PACKAGES = ['zod', 'gpt-tokenizer', 'fastest-levenshtein', 'diff', 'uuid'];
/** What a test beside domain code may import besides (test runner, property tests, Node, a real SQLite for FTS checks). */
const DOMAIN_TEST_PACKAGES = ['vitest', 'fast-check', '@sqlite.org/sqlite-wasm'];

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|svelte)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
/** Tests and their support files (`testing.ts`, `extract-testing.ts`, `test-helpers.ts`): never shipped. */
const isTest = (file: string) => /\.test\.ts$|(?:\/|-)(?:testing|test-helpers)\.ts$/.test(file);

/** Where a relative import lands, as a path from the repo root (e.g. `src/lib/engine/store/x`). */
function target(file: string, spec: string): string {
  return relative(ROOT, resolve(dirname(file), spec)).split('\\').join('/');
}

function violations(dir: string, check: (file: string, spec: string) => string | null): string[] {
  const out: string[] = [];
  for (const file of files(join(LIB, dir))) {
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const problem = check(file, spec);
      if (problem) out.push(`${relative(ROOT, file)}: ${spec} (${problem})`);
    }
  }
  return out;
}

function domainRule(file: string, spec: string): string | null {
  if (spec.startsWith('.')) {
    const to = target(file, spec);
    if (!isTest(file) && isTest(`${to}.ts`)) return 'shipped code imports test support';
    if (to.startsWith('src/lib/domain/')) return null;
    return isTest(file) && to.startsWith('tests/fixtures/') ? null : 'leaves domain/';
  }
  if (spec.startsWith('node:')) return isTest(file) ? null : 'Node API in domain code';
  const pkg = packageOf(spec);
  if (DOMAIN_PACKAGES.includes(pkg)) return null;
  if (isTest(file) && DOMAIN_TEST_PACKAGES.includes(pkg)) return null;
  return 'package not allowed in domain/';
}

function engineRule(file: string, spec: string): string | null {
  if (spec.startsWith('$app') || spec.startsWith('$lib/ui') || spec.startsWith('$lib/routes')) return 'app/UI module';
  if (!spec.startsWith('.')) return null;
  const to = target(file, spec);
  return to.startsWith('src/lib/ui/') || to.startsWith('src/routes/') ? 'reaches into ui/ or routes/' : null;
}

describe('layering: imports only point left', () => {
  it('reads every kind of import', () => {
    expect(importsOf("import a from 'x';\nimport type { B } from '../b';\nexport { c } from './c';\nimport 'side';\nconst d = await import('./d');")).toEqual([
      'x',
      '../b',
      './c',
      'side',
      './d',
    ]);
  });

  it('domain code imports only domain code and its few pure packages', () => {
    const found = violations('domain', domainRule);
    expect(found).toEqual([]);
  });

  it('engine code never imports ui/ or routes/', () => {
    const found = violations('engine', engineRule);
    expect(found).toEqual([]);
  });

  it('the checks catch a violation', () => {
    const file = join(LIB, 'domain', 'memory', 'x.ts');
    expect(domainRule(file, '../../engine/store/memory-repo')).toBe('leaves domain/');
    expect(domainRule(file, 'comlink')).toBe('package not allowed in domain/');
    expect(domainRule(file, '@sqlite.org/sqlite-wasm')).toBe('package not allowed in domain/');
    expect(domainRule(file, 'node:fs')).toBe('Node API in domain code');
    expect(domainRule(file, './extract-testing')).toBe('shipped code imports test support');
    expect(domainRule(file, '../text/tokens')).toBeNull();
    expect(domainRule(file, 'zod')).toBeNull();
    expect(domainRule(join(LIB, 'domain', 'memory', 'x.test.ts'), 'fast-check')).toBeNull();
    const engineFile = join(LIB, 'engine', 'memory', 'x.ts');
    expect(engineRule(engineFile, '../../ui/app/handle-error.svelte')).toBe('reaches into ui/ or routes/');
    expect(engineRule(engineFile, '$app/environment')).toBe('app/UI module');
    expect(engineRule(engineFile, '../../domain/memory')).toBeNull();
    expect(target(file, '../../engine/store/memory-repo')).toBe('src/lib/engine/store/memory-repo');
    expect(packageOf('@sqlite.org/sqlite-wasm/foo')).toBe('@sqlite.org/sqlite-wasm');
    expect(packageOf('gpt-tokenizer/encoding/cl100k_base')).toBe('gpt-tokenizer');
    expect(isTest('src/lib/domain/memory/extract-testing.ts')).toBe(true);
    expect(isTest('src/lib/domain/memory/extract-rules.ts')).toBe(false);
  });
});
