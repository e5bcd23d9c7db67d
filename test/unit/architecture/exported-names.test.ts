import { describe, expect, it } from 'vitest';
import { sources } from './sources.js';

/**
 * Names that several modules may declare on purpose, each with why. Keep this list short: a
 * second module declaring a name is a second concept under one name unless it is the same
 * behaviour by convention. (Re-exports such as `export { X } from` are one declaration and never
 * counted.)
 */
const SHARED_NAMES: ReadonlyMap<string, string> = new Map([
  // None today: every exported function, const and class under src/ has one home.
]);

/** A value declared and exported at the top of a module: function, const/let/var, class or enum. */
const EXPORTED_VALUE = /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\s*\*?|const|let|var|(?:abstract\s+)?class|enum)\s+([A-Za-z_$][\w$]*)/gm;

/** `name: module, module` for each exported value name declared by more than one module. */
export function duplicateExports(files: Map<string, string>, allowed: ReadonlyMap<string, string> = SHARED_NAMES): string[] {
  const homes = new Map<string, string[]>();
  for (const [file, text] of files) {
    for (const m of text.matchAll(EXPORTED_VALUE)) {
      const name = m[1]!;
      homes.set(name, [...(homes.get(name) ?? []), file]);
    }
  }
  return [...homes]
    .filter(([name, where]) => new Set(where).size > 1 && !allowed.has(name))
    .map(([name, where]) => `${name}: ${[...new Set(where)].join(', ')}`)
    .sort();
}

describe('one module per concept', () => {
  it('no two modules under src/ export a function, const or class of the same name', () => {
    expect(duplicateExports(sources())).toEqual([]);
  });

  it('finds planted duplicates, whatever the kind of declaration, and honours the allowlist', () => {
    const planted = new Map([
      ['a/one.ts', 'export function shellQuote(w: string): string { return w; }\nexport const LIMIT = 1;\nexport async function run(): Promise<void> {}\n'],
      ['b/two.ts', "export const shellQuote = (w: string): string => `'${w}'`;\nexport class LIMIT {}\nexport async function run(): Promise<void> {}\n"],
      ['c/three.ts', "export { shellQuote } from '../a/one.js';\nexport interface Options {}\nexport function* run() {}\n"],
    ]);
    expect(duplicateExports(planted, new Map())).toEqual(['LIMIT: a/one.ts, b/two.ts', 'run: a/one.ts, b/two.ts, c/three.ts', 'shellQuote: a/one.ts, b/two.ts']);
    expect(duplicateExports(planted, new Map([['run', 'each command module runs its command']]))).toEqual(['LIMIT: a/one.ts, b/two.ts', 'shellQuote: a/one.ts, b/two.ts']);
  });

  it('every allowlisted name is still declared by several modules', () => {
    const all = duplicateExports(sources(), new Map());
    for (const name of SHARED_NAMES.keys()) expect(all.some((d) => d.startsWith(`${name}: `)), name).toBe(true);
  });
});
