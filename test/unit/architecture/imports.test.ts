import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../../src');

/** Every relative import and re-export of each module under src/ (type-only ones included). */
function importGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const deps = [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm)]
      .map((m) => resolve(dirname(f), (m[1] ?? m[2])!.replace(/\.js$/, '.ts')))
      .filter((d) => known.has(d));
    graph.set(f, deps);
  }
  return graph;
}

/** Import cycles as lists of paths relative to src/ (depth-first, each back edge once). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 1);
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 1) cycles.push(stack.slice(stack.indexOf(d)).map((x) => relative(SRC, x)));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return cycles;
}

describe('module imports', () => {
  it('form no cycle under src/ (type-only imports included)', () => {
    expect(importCycles(importGraph())).toEqual([]);
  });

  it('the cycle finder finds a planted cycle', () => {
    const g = new Map([[`${SRC}/a.ts`, [`${SRC}/b.ts`]], [`${SRC}/b.ts`, [`${SRC}/c.ts`]], [`${SRC}/c.ts`, [`${SRC}/a.ts`]]]);
    expect(importCycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
