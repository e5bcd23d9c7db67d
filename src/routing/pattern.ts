/**
 * GitHub's filter pattern language (ROUTING.md section 10), compiled once to anchored regexes.
 *
 * | piece                 | regex        |
 * | `**` + `/`            | `(?:.+/)?`   |
 * | `**`                  | `.*`         |
 * | `*`                   | `[^/]*`      |
 * | `?`, `+`              | quantifier of the preceding item; literal when first in the pattern |
 * | `[...]`               | one character: alphanumerics and ranges within a-z, A-Z or 0-9 |
 * | `\c`                  | the literal character c |
 * | anything else         | itself (`.` is a literal dot) |
 * | leading `!`           | negative pattern; the rest is converted as above |
 *
 * The whole pattern is anchored (`^...$`) and `*`/`**` match names starting with a dot (no
 * dotfile exception). ROUTING.md section 19 point 4 decided: matching is case-sensitive (no `i`
 * flag), as in the Go/.NET reimplementations; git paths and ref names are case-sensitive.
 */

export interface CompiledPattern {
  /** Starts with `!`: a match excludes instead of including. */
  readonly negative: boolean;
  /** Anchored regex of the pattern without its leading `!`. */
  readonly regex: RegExp;
  /** The pattern exactly as written, including a leading `!`. */
  readonly source: string;
  /**
   * Every match starts with `prefix` and ends with `suffix` (cheap pre-checks before the regex).
   * `shape` says when they decide alone: `exact` (no special character: equal to `prefix`),
   * `starts` (`<literal>**`: starts with `prefix`), `ends` (`**` then a literal, or `**`, `/`, `*` and a
   * literal, with no `/` in the literal: ends with `suffix`); otherwise `regex` and the regex judges.
   */
  readonly prefix: string;
  readonly suffix: string;
  readonly shape: PatternShape;
}

export type PatternShape = 'regex' | 'exact' | 'starts' | 'ends';

export class PatternError extends Error {
  constructor(
    readonly pattern: string,
    readonly problem: string,
  ) {
    super(`invalid pattern '${pattern}': ${problem}`);
    this.name = 'PatternError';
  }
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

function literal(ch: string): string {
  return REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch;
}

function isAlnum(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

function sameRangeGroup(lo: string, hi: string): boolean {
  const groups: [string, string][] = [
    ['a', 'z'],
    ['A', 'Z'],
    ['0', '9'],
  ];
  return groups.some(([a, b]) => lo >= a && lo <= b && hi >= a && hi <= b);
}

/**
 * Converts `[...]` starting at index `at` (the `[`) into a regex class. Returns the class and the
 * index after the closing `]`. Only alphanumerics and ranges inside one of a-z, A-Z, 0-9 are
 * allowed (cheat sheet: "Matches one alphanumeric character listed in the brackets or included
 * in ranges. Ranges can only include a-z, A-Z, and 0-9").
 */
function convertClass(pattern: string, chars: readonly string[], at: number): [string, number] {
  let pos = at + 1;
  if (chars[pos] === ']') throw new PatternError(pattern, "empty brackets '[]'");
  let out = '[';
  while (pos < chars.length && chars[pos] !== ']') {
    const ch = chars[pos]!;
    if (!isAlnum(ch)) throw new PatternError(pattern, `'${ch}' is not allowed inside brackets (only a-z, A-Z, 0-9 and ranges)`);
    if (chars[pos + 1] === '-' && pos + 2 < chars.length && chars[pos + 2] !== ']') {
      const hi = chars[pos + 2]!;
      if (!sameRangeGroup(ch, hi) || ch > hi) {
        throw new PatternError(pattern, `invalid range '${ch}-${hi}' (ranges can only include a-z, A-Z and 0-9, low to high)`);
      }
      out += `${ch}-${hi}`;
      pos += 3;
    } else {
      out += ch;
      pos += 1;
    }
  }
  if (pos >= chars.length) throw new PatternError(pattern, "missing closing bracket ']'");
  return [`${out}]`, pos + 1];
}

/**
 * Compiles one pattern as written in a workflow (`'docs/**'`, `'!**.md'`, `'v[12].[0-9]+'`).
 * Throws PatternError for a pattern GitHub documents as invalid (empty or unclosed brackets,
 * ranges outside a-z/A-Z/0-9, a trailing `\`, a quantifier that follows a quantifier).
 */
export function compilePattern(pattern: string): CompiledPattern {
  const negative = pattern.startsWith('!');
  const body = negative ? pattern.slice(1) : pattern;
  // Iterate by code point so that a quantifier after a non-BMP character applies to all of it.
  const chars = Array.from(body);
  let out = '^';
  // State of the last emitted item: 'atom' can take a quantifier, 'greedy' ends in `*`/`?`/`+`
  // (a following `?` makes it lazy, which for a whole-string match changes nothing), 'lazy' and
  // 'start' cannot take one.
  let last: 'start' | 'atom' | 'greedy' | 'lazy' = 'start';
  let pos = 0;
  while (pos < chars.length) {
    const ch = chars[pos]!;
    if (ch === '*') {
      if (chars[pos + 1] === '*') {
        if (chars[pos + 2] === '/') {
          out += '(?:.+/)?';
          pos += 3;
        } else {
          out += '.*';
          pos += 2;
        }
      } else {
        out += '[^/]*';
        pos += 1;
      }
      last = 'greedy';
    } else if (ch === '?' || ch === '+') {
      if (last === 'start') {
        out += literal(ch);
        last = 'atom';
      } else if (last === 'atom') {
        out += ch;
        last = 'greedy';
      } else if (last === 'greedy' && ch === '?') {
        out += '?';
        last = 'lazy';
      } else {
        throw new PatternError(pattern, `'${ch}' at position ${pos + (negative ? 1 : 0)} follows another quantifier`);
      }
      pos += 1;
    } else if (ch === '[') {
      const [cls, next] = convertClass(pattern, chars, pos);
      out += cls;
      pos = next;
      last = 'atom';
    } else if (ch === '\\') {
      const next = chars[pos + 1];
      if (next === undefined) throw new PatternError(pattern, "'\\' at the end escapes nothing");
      out += literal(next);
      pos += 2;
      last = 'atom';
    } else {
      out += literal(ch);
      pos += 1;
      last = 'atom';
    }
  }
  out += '$';
  // `s`: `**` matches any character, newline included. `u` (code points, as iterated above)
  // matters only when the pattern has a character outside the BMP, where a quantifier must
  // apply to the whole character; ASCII-and-BMP patterns match the same without it, faster.
  const astral = chars.some((c) => c.length > 1);
  const regex = new RegExp(out, astral ? 'su' : 's');
  const parts = literalParts(chars);
  // Always the same properties in the same order: one object shape keeps the hot loop monomorphic.
  return { negative, regex, source: pattern, prefix: parts.prefix, suffix: parts.suffix, shape: shapeOf(body, parts) };
}

const SPECIAL: ReadonlySet<string> = new Set(['*', '?', '+', '[', ']', '\\']);

/**
 * Literal prefix and suffix of a pattern body (stopping at any special character; a character
 * quantified by a following `?` or `+` is left out), or the whole body when it has no special
 * character at all. Used only as a pre-check: the regex stays the judge.
 */
function literalParts(chars: readonly string[]): { prefix: string; suffix: string; exact: boolean } {
  let start = 0;
  while (start < chars.length && !SPECIAL.has(chars[start]!)) start++;
  if (start === chars.length) {
    const whole = chars.join('');
    return { prefix: whole, suffix: whole, exact: true };
  }
  const prefixEnd = chars[start] === '?' || chars[start] === '+' ? Math.max(0, start - 1) : start;
  let end = chars.length;
  while (end > 0 && !SPECIAL.has(chars[end - 1]!)) end--;
  // The `/` of `**/` is optional (`**/x` matches `x`), so it is not part of the suffix.
  if (chars[end] === '/' && chars[end - 1] === '*' && chars[end - 2] === '*') end++;
  return { prefix: chars.slice(0, prefixEnd).join(''), suffix: chars.slice(end).join(''), exact: false };
}

/**
 * Shapes whose regex is equivalent to a literal test: `L**` is `^L.*$` (starts with L); `**S`
 * is `^.*S$`, and `**`, `/`, `*S` is `^(?:.+/)?[^/]*S$`: both "ends with S" when S has no `/`.
 */
function shapeOf(body: string, parts: { prefix: string; suffix: string; exact: boolean }): PatternShape {
  if (parts.exact) return 'exact';
  if (body === `${parts.prefix}**`) return 'starts';
  if (!parts.suffix.includes('/') && (body === `**${parts.suffix}` || body === `**/*${parts.suffix}`)) return 'ends';
  return 'regex';
}

export interface ListMatch {
  /** Final state of the ordered walk: the subject is included (last matching pattern positive). */
  readonly included: boolean;
  /** Index of the last pattern that matched, or -1 when none did. */
  readonly index: number;
}

/**
 * Ordered evaluation (section 11): the last pattern that matches decides; a positive pattern
 * includes, a `!` pattern excludes; no match means not included. Scans from the end and stops at
 * the first hit, which is the same as walking forward and keeping the last state.
 */
export function matchList(patterns: readonly CompiledPattern[], subject: string): ListMatch {
  for (let i = patterns.length - 1; i >= 0; i--) {
    const p = patterns[i]!;
    if (p.regex.test(subject)) return { included: !p.negative, index: i };
  }
  return { included: false, index: -1 };
}

/** Does `p` (without its `!`) match `subject`? The literal pre-checks first, the regex as judge. */
export function hits(p: CompiledPattern, subject: string): boolean {
  const shape = p.shape;
  return shape === 'exact'
    ? subject === p.prefix
    : shape === 'starts'
      ? subject.startsWith(p.prefix)
      : shape === 'ends'
        ? // `(?:.+/)?` cannot take a lone leading `/`: such a (non-git) path goes to the regex.
          subject.endsWith(p.suffix) && (subject.charCodeAt(0) !== 47 || p.regex.test(subject))
        : subject.startsWith(p.prefix) && subject.endsWith(p.suffix) && p.regex.test(subject);
}

/** `matchList(...).included` without allocating: the hot path of the repository prior. */
export function isIncluded(patterns: readonly CompiledPattern[], subject: string): boolean {
  for (let i = patterns.length - 1; i >= 0; i--) {
    const p = patterns[i]!;
    if (hits(p, subject)) return !p.negative;
  }
  return false;
}
