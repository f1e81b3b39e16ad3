// No two API modules may depend on each other, directly or around a loop. The graph has cycles
// today; the edges below are the known ones that close them, each to be removed by the lane that
// owns it. A new edge that closes a cycle fails this test, and so does a listed edge that is gone
// (take it off the list, so the list only shrinks).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeCycle, moduleCycles, moduleGraph } from './module-graph.ts';

const modulesDir = path.dirname(fileURLToPath(import.meta.url));

// Still to be removed (issue 14): the commercial modules reach services and payments both ways
// (an order's service, a service's payment). The VAT number check that auth and users took from
// billing now sits beside VIES (vies/vat-number.ts), so neither depends on billing. The request helpers that
// every module's routes once took from auth now live in http/caller.ts, so nothing points back
// at auth (users ↔ auth is gone), and nodes no longer imports services.
const KNOWN_CYCLE_EDGES = [
  'activity → services',
  'billing → orders',
  'billing → services',
  'orders → payments',
  'orders → services',
  'payments → services',
  'plan-changes → services',
  'services → payments',
];

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

  it('has no cycle between modules but the known edges still to be removed', () => {
    const graph = moduleGraph(modulesDir);
    const rest = without(graph, KNOWN_CYCLE_EDGES);
    expect(moduleCycles(rest).map((group) => describeCycle(rest, group))).toEqual([]);
    const gone = KNOWN_CYCLE_EDGES.filter((edge) => {
      const [from, to] = edge.split(' → ');
      return !graph.get(from!)?.has(to!);
    });
    expect(gone).toEqual([]);
  });
});
