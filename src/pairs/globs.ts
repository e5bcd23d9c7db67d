/**
 * Path globs for splitting a diff into code and tests. A small compiler of our own so the rules
 * are explicit: `*` and `?` stop at `/`, `**` crosses it, a `**` segment followed by a slash may match zero
 * directories, `[...]` / `[!...]` are character classes, `{a,b}` alternatives, `\` escapes.
 * A pattern without any `/` matches a file name at any depth (`*.spec.ts` matches `a/b/x.spec.ts`).
 * Matching is on the whole repository-relative path, never a substring search.
 */

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

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const escapeRegex = (s: string): string => s.replace(REGEX_SPECIAL, '\\$&');

/** Regular-expression source of one brace-free glob (anchored by the caller). */
function globSource(glob: string): string {
  let src = '';
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === '\\') {
      src += escapeRegex(glob[i + 1] ?? '\\');
      i += 2;
    } else if (c === '*' && glob[i + 1] === '*') {
      let j = i;
      while (glob[j] === '*') j += 1;
      const segmentStart = i === 0 || glob[i - 1] === '/';
      if (segmentStart && glob[j] === '/') {
        src += '(?:[^/]*/)*'; // zero or more whole directories
        i = j + 1;
      } else if (segmentStart && j === glob.length) {
        src += '.*';
        i = j;
      } else {
        src += '[^/]*'; // `a**b` inside a segment behaves like `*`
        i = j;
      }
    } else if (c === '*') {
      src += '[^/]*';
      i += 1;
    } else if (c === '?') {
      src += '[^/]';
      i += 1;
    } else if (c === '[') {
      const cls = readClass(glob, i);
      if (cls) {
        src += cls.source;
        i = cls.end;
      } else {
        src += '\\[';
        i += 1;
      }
    } else {
      src += escapeRegex(c);
      i += 1;
    }
  }
  return src;
}

function readClass(glob: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (glob[i] === '!' || glob[i] === '^') {
    negate = true;
    i += 1;
  }
  let body = '';
  let first = true;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === ']' && !first) {
      if (body === '') return null;
      return { source: `[${negate ? '^/' : ''}${body}]`, end: i + 1 };
    }
    if (c === '\\') {
      body += `\\${glob[i + 1] ?? '\\'}`;
      i += 2;
    } else {
      body += c === '-' ? '-' : c === '/' ? '' : c.replace(/[\]\\^[]/g, '\\$&');
      i += 1;
    }
    first = false;
  }
  return null;
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
