import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The DB worker's first script (issue 16 item 3, cold start): what the bundler puts in it is what workers/db.worker.ts
 * reaches through static value imports. The engine (its services, the protocol's zod schemas, recall) must stay out of
 * it and load as a chunk of its own (host/worker-api.ts imports ./open-engine dynamically), so sqlite-wasm's fetch and
 * compile start before ~660 KB of engine code is fetched, compiled and evaluated. A single static import of the engine
 * from anything the entry reaches would put it all back in front of sqlite3InitModule, and nothing else would notice.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Graph {
  /** Repository files (relative paths) the entry reaches through static value imports. */
  files: Set<string>;
  /** Packages those files import (bare specifiers, by package name). */
  packages: Set<string>;
  /** Dynamic imports seen in those files: `${importer} -> ${resolved file}`. */
  dynamic: Set<string>;
}

function resolveLocal(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec.split('?')[0]!);
  return [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? null;
}

const packageName = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

/** Static value imports and re-exports (type-only ones are erased by the compiler), and dynamic imports, of one file. */
function importsOf(file: string): { statics: string[]; dynamics: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const statics: string[] = [];
  const dynamics: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !node.importClause?.isTypeOnly) {
      // With verbatimModuleSyntax, `import { type A } from 'x'` stays as `import {} from 'x'`: x is still evaluated.
      statics.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) {
      statics.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteral(arg)) dynamics.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { statics, dynamics };
}

function staticGraph(entry: string): Graph {
  const graph: Graph = { files: new Set(), packages: new Set(), dynamic: new Set() };
  const queue = [resolve(repo, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    const rel = relative(repo, file);
    if (graph.files.has(rel)) continue;
    graph.files.add(rel);
    if (!file.endsWith('.ts')) continue; // a raw asset (SQL, JSON): a leaf
    const { statics, dynamics } = importsOf(file);
    for (const spec of statics) {
      if (!spec.startsWith('.')) {
        graph.packages.add(packageName(spec));
        continue;
      }
      const target = resolveLocal(file, spec);
      if (!target) throw new Error(`${rel}: cannot resolve ${spec}`);
      queue.push(target);
    }
    for (const spec of dynamics) {
      const target = spec.startsWith('.') ? resolveLocal(file, spec) : null;
      graph.dynamic.add(`${rel} -> ${target ? relative(repo, target) : spec}`);
    }
  }
  return graph;
}

describe('the DB worker’s first script (issue 16 item 3: sqlite-wasm starts loading before the engine’s code)', () => {
  const graph = staticGraph('workers/db.worker.ts');

  it('reaches sqlite-wasm and the database opening statically', () => {
    expect(graph.packages).toContain('@sqlite.org/sqlite-wasm');
    expect(graph.files).toContain('src/lib/engine/store/open-wasm.ts');
    expect(graph.files).toContain('src/lib/engine/host/worker-api.ts');
  });

  it('does not reach the engine, its services, the protocol’s schemas or recall statically', () => {
    const engineFiles = [...graph.files].filter(
      (f) =>
        f === 'src/lib/engine/engine.ts' ||
        f === 'src/lib/engine/services.ts' ||
        f === 'src/lib/engine/host/open-engine.ts' ||
        f.startsWith('src/lib/engine/protocol/') ||
        f.startsWith('src/lib/engine/handlers/') ||
        f.startsWith('src/lib/engine/recall/') ||
        f.startsWith('src/lib/domain/recall/'),
    );
    expect(engineFiles).toEqual([]);
    expect(graph.packages).not.toContain('zod');
  });

  it('loads the engine’s code through the dynamic import in worker-api.ts', () => {
    expect(graph.dynamic).toContain('src/lib/engine/host/worker-api.ts -> src/lib/engine/host/open-engine.ts');
  });
});
