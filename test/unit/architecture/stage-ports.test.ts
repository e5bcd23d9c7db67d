import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sources } from './sources.js';

const STAGES = resolve(import.meta.dirname, '../../../src/stages');

/**
 * Ways a stage could reach around its typed context: an untyped lookup of a service or cache by
 * name, or a cast of a run option (the options are a typed RunOptions).
 */
const UNTYPED = [/services\.get\b/, /options\.\w+\s+as\b/];

/** `file:line: text` of every line matching an untyped access. */
export function untypedAccesses(files: ReadonlyMap<string, string>): string[] {
  const hits: string[] = [];
  for (const [file, text] of files) {
    text.split('\n').forEach((line, i) => {
      if (UNTYPED.some((re) => re.test(line))) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}


describe('stages use the typed ports of their context', () => {
  it('no stage looks a service up by name or casts a run option', () => {
    const files = sources(STAGES);
    expect(files.size).toBeGreaterThan(10);
    expect(untypedAccesses(files)).toEqual([]);
  });

  it('the check finds both kinds of untyped access', () => {
    const planted = new Map([
      ['a.ts', "const git = ctx.services.get('git', () => open());\n"],
      ['b.ts', 'const ok = 1;\nconst env = ctx.options.env as Record<string, string>;\n'],
      ['c.ts', 'const dir = ctx.options.dataDir;\nconst cache = ctx.caches.pairSplits;\n'],
    ]);
    expect(untypedAccesses(planted)).toEqual([
      "a.ts:1: const git = ctx.services.get('git', () => open());",
      'b.ts:2: const env = ctx.options.env as Record<string, string>;',
    ]);
  });
});
