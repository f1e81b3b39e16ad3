// No two API modules may depend on each other, directly or around a loop. The layering: services
// (with activity, users, auth and nodes below it) is the lower module; orders, plan-changes,
// billing and payments sit above it in that order. What a lower module asks of a higher one (a
// payment session for an order or a service's unpaid order, a service's name in the activity
// log) is a port in its deps that app.ts wires.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeCycle, moduleCycles, moduleGraph } from './module-graph.ts';

const modulesDir = path.dirname(fileURLToPath(import.meta.url));

function without(graph: Map<string, Set<string>>, edges: readonly string[]) {
  const copy = new Map([...graph].map(([from, to]) => [from, new Set(to)]));
  for (const edge of edges) {
    const [from, to] = edge.split(' → ');
    copy.get(from!)?.delete(to!);
  }
  return copy;
}

describe('module dependencies', () => {
  it('finds a cycle and names its edges', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    const cycles = moduleCycles(graph);
    expect(cycles).toEqual([['a', 'b', 'c']]);
    expect(describeCycle(graph, cycles[0]!)).toBe('a, b, c (a → b; b → c; c → a)');
    expect(moduleCycles(without(graph, ['c → a']))).toEqual([]);
  });

  it('has no cycle between modules', () => {
    const graph = moduleGraph(modulesDir);
    expect(moduleCycles(graph).map((group) => describeCycle(graph, group))).toEqual([]);
  });
});
