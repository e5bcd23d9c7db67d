import { describe, expect, it } from 'vitest';
import { compileWorkflows, route, type RouteContext } from '../../src/routing/index.js';
import { inputsAndYamlCases } from './cases-inputs-yaml.js';
import { filterCases } from './cases-filters.js';
import { eventCases, repoCases } from './cases-events-repos.js';
import type { ConformanceCase } from './support.js';

const ALL: readonly ConformanceCase[] = [...inputsAndYamlCases, ...filterCases, ...eventCases, ...repoCases];

function contextOf(c: ConformanceCase): RouteContext {
  return { event: 'pull_request', action: 'synchronize', base_branch: 'main', ...c.ctx };
}

describe('routing conformance (ROUTING.md)', () => {
  it('has at least 110 hand-written cases with unique names, each citing a section and a source', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(110);
    expect(new Set(ALL.map((c) => c.name)).size).toBe(ALL.length);
    for (const c of ALL) {
      expect(c.section).toMatch(/^§\d/);
      expect(c.source.length).toBeGreaterThan(3);
    }
  });

  it('covers every section 1 to 18 of ROUTING.md', () => {
    const covered = new Set(ALL.flatMap((c) => [...c.section.matchAll(/§(\d+)/g)].map((m) => Number(m[1]))));
    for (let s = 1; s <= 18; s++) expect(covered, `section ${s}`).toContain(s);
  });

  it.each(ALL.map((c) => [`${c.section}: ${c.name}`, c] as const))('%s', (_title, c) => {
    const files = Object.entries(c.files).map(([path, text]) => ({ path, text }));
    const ctx = contextOf(c);
    const result = route(files, c.changed, ctx);
    expect(result.activated).toEqual(c.activated);
    const invalid = Object.fromEntries(result.invalid.map((i) => [i.path, i.reason.slice(0, i.reason.indexOf(':'))]));
    expect(invalid).toEqual(c.invalid ?? {});
    if (c.limitApplied !== undefined) expect(result.limitApplied).toBe(c.limitApplied);
    // The compiled fast path must agree with the explained evaluation.
    expect(compileWorkflows(files).activatedFor(c.changed, ctx)).toEqual(c.activated);
  });
});
