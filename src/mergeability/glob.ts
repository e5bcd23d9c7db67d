/**
 * The path-glob dialect of mergeability rubrics (`repo_rubric.v1`). Pure.
 *
 * - A glob is matched against a whole path relative to the repository root, `/`-separated,
 *   without a leading `/` or `./` (such globs are refused, as are empty segments and `.`/`..`).
 * - `*` matches any run of characters except `/`; `?` matches one character except `/`.
 * - `**` as a whole segment matches any number of directories, zero included: `dir/**` matches
 *   everything below `dir`, `**` + `/x` matches `x` at any depth (the root included), `a/**` + `/b`
 *   matches `a/b` and `a/x/y/b`. Inside a segment (`a**b`) it behaves like `*`.
 * - `[abc]`, `[a-z]`, `[!abc]` (or `[^abc]`) match one character of a class, never `/`.
 * - `\` escapes the next character.
 * - Nothing else is special: no brace alternatives (`{a,b}` is literal), no extglob (`!(x)`,
 *   `@(x)`, `+(x)` are literal), no negation, and a glob without `/` matches at the root only
 *   (`*.yml` matches `ci.yml`, not `docs/ci.yml`). Neither fnmatch (whose `*` crosses `/`) nor
 *   minimatch's defaults (brace expansion, extglob, basename matching options).
 *
 * The pair miner's test globs (src/pairs/globs.ts) build on this translator and add brace
 * alternatives and file-name-anywhere matching for slash-less globs.
 */

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const escapeRegex = (s: string): string => s.replace(REGEX_SPECIAL, '\\$&');

/** Regular-expression source of one glob of this dialect (not anchored; the caller anchors). */
export function globSource(glob: string): string {
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

/** Why `glob` is not a glob of this dialect, or null when it is. */
export function globProblem(glob: string): string | null {
  if (glob.length === 0) return 'empty glob';
  if (glob.startsWith('/')) return 'must be relative to the repository root (no leading /)';
  if (glob.startsWith('./')) return 'must be relative to the repository root (no leading ./)';
  if (glob.endsWith('/')) return 'ends with / (write dir/** for everything below a directory)';
  const segments = glob.split('/');
  if (segments.some((s) => s.length === 0)) return 'has an empty path segment (//)';
  if (segments.some((s) => s === '.' || s === '..')) return 'has a . or .. segment';
  return null;
}

/** Compiles one glob to an anchored regular expression; throws RangeError naming the problem. */
export function compileGlob(glob: string): RegExp {
  const problem = globProblem(glob);
  if (problem) throw new RangeError(`glob ${JSON.stringify(glob)}: ${problem}`);
  return new RegExp(`^${globSource(glob)}$`);
}

/** True when `path` matches `glob`. */
export function matchGlob(glob: string, path: string): boolean {
  return compileGlob(glob).test(path);
}

/** A matcher compiled once: true when a path matches any of `globs` (false for an empty list). */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const regexes = globs.map(compileGlob);
  return (path) => regexes.some((r) => r.test(path));
}

/** A glob matching exactly `path` (every special character escaped). */
export function literalGlob(path: string): string {
  return path.replace(/[*?[\]\\]/g, '\\$&');
}
