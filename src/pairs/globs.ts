/**
 * Path globs for splitting a diff into code and tests: the rubric dialect of
 * src/mergeability/glob.ts (`*` and `?` stop at `/`, `**` crosses it, a `**` segment followed by a
 * slash may match zero directories, `[...]` / `[!...]` character classes, `\` escapes) plus two
 * conveniences for configured test globs: `{a,b}` alternatives, and a pattern without any `/`
 * matches a file name at any depth (`*.spec.ts` matches `a/b/x.spec.ts`).
 * Matching is on the whole repository-relative path, never a substring search.
 */
import { globSource } from '../mergeability/glob.js';

/** Test-file globs used when a repository configures none (common layouts of several languages). */
export const DEFAULT_TEST_GLOBS: readonly string[] = [
  'tests/**',
  'test/**',
  '**/test_*.py',
  '**/*_test.py',
  '**/*_test.go',
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/*.test.js',
  '**/*.test.jsx',
  '**/*.test.mjs',
  '**/*.spec.ts',
  '**/*.spec.tsx',
  '**/*.spec.js',
  '**/*.spec.jsx',
  '**/__tests__/**',
  'src/test/**',
  'spec/**',
];

const MAX_EXPANSIONS = 256;

/** Expands `{a,b}` alternatives (nested allowed) into plain globs. */
export function expandBraces(glob: string): string[] {
  const open = findBraceOpen(glob);
  if (open < 0) return [glob];
  const close = findBraceClose(glob, open);
  if (close < 0) return [glob];
  const parts = splitTopLevel(glob.slice(open + 1, close));
  if (parts.length < 2) {
    // `{x}` is not an alternation: keep the braces literal.
    const literal = `${glob.slice(0, open)}\\{${parts[0] ?? ''}\\}`;
    return expandBraces(glob.slice(close + 1)).map((rest) => literal + rest);
  }
  const out: string[] = [];
  for (const p of parts) {
    for (const e of expandBraces(glob.slice(0, open) + p + glob.slice(close + 1))) {
      out.push(e);
      if (out.length > MAX_EXPANSIONS) throw new RangeError(`${glob}: too many brace alternatives`);
    }
  }
  return out;
}

function findBraceOpen(s: string): number {
  let inClass = false;
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i];
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = s.indexOf(']', i + 2) > 0;
    else if (c === '{') return i;
  }
  return -1;
}

function findBraceClose(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i += 1) {
    const c = s[i];
    if (c === '\\') i += 1;
    else if (c === '{') depth += 1;
    else if (c === '}' && (depth -= 1) === 0) return i;
  }
  return -1;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i];
    if (c === '\\') i += 1;
    else if (c === '{') depth += 1;
    else if (c === '}') depth -= 1;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/** Compiles one glob (braces allowed) to an anchored regular expression over repository paths. */
export function globToRegExp(glob: string): RegExp {
  if (glob.length === 0) throw new RangeError('empty glob');
  const normalized = glob.startsWith('./') ? glob.slice(2) : glob.startsWith('/') ? glob.slice(1) : glob;
  const alternatives = expandBraces(normalized).map((g) => {
    const anywhere = !g.includes('/');
    return `${anywhere ? '(?:[^/]*/)*' : ''}${globSource(g)}`;
  });
  return new RegExp(`^(?:${alternatives.join('|')})$`);
}

/** A matcher compiled once: true when `path` matches any of the globs. */
export function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  const regexes = globs.map(globToRegExp);
  return (path) => regexes.some((r) => r.test(path));
}
