// The API modules as a graph: module → the other modules its non-test files import. Read with the
// TypeScript parser (no type checking, so it is quick); an `import type` counts like any other,
// because a module that needs another's types depends on it as much as one that calls it.
// `*.table.ts` files are left out: a table naming another module's table in a foreign key is
// schema (what db/schema.ts gathers for drizzle), not one module using another.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SKIPPED = /\.(test|test-support)\.ts$|\.table\.ts$/;

/** Every module's direct dependencies on other modules, by module directory name. */
export function moduleGraph(modulesDir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const module of readdirSync(modulesDir, { withFileTypes: true })) {
    if (!module.isDirectory()) continue;
    const needs = new Set<string>();
    graph.set(module.name, needs);
    const dir = path.join(modulesDir, module.name);
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || SKIPPED.test(file)) continue;
      const full = path.join(dir, file);
      const source = ts.createSourceFile(full, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest);
      for (const statement of source.statements) {
        const specifier =
          (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
          statement.moduleSpecifier &&
          ts.isStringLiteral(statement.moduleSpecifier)
            ? statement.moduleSpecifier.text
            : null;
        if (!specifier?.startsWith('.')) continue;
        const target = path.relative(modulesDir, path.resolve(path.dirname(full), specifier));
        const [other] = target.split(path.sep);
        if (other && other !== module.name && !other.startsWith('..') && target.includes(path.sep)) {
          needs.add(other);
        }
      }
    }
  }
  return graph;
}

/** The cycles of the graph: each strongly connected group of two or more modules, sorted. */
export function moduleCycles(graph: Map<string, Set<string>>): string[][] {
  // Tarjan's algorithm; the graph has a few dozen nodes, so recursion is fine.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const other of graph.get(node) ?? []) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node)!, low.get(other)!));
      } else if (onStack.has(other)) {
        low.set(node, Math.min(low.get(node)!, index.get(other)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/** One edge of each pair that closes a cycle, for a readable failure: `a → b → a`. */
export function describeCycle(graph: Map<string, Set<string>>, group: readonly string[]): string {
  const members = new Set(group);
  const edges = group.flatMap((from) =>
    [...(graph.get(from) ?? [])].filter((to) => members.has(to)).map((to) => `${from} → ${to}`),
  );
  return `${group.join(', ')} (${edges.join('; ')})`;
}
