/** Small text functions shared by the sanitize detectors (pure). */

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Hex runs of 7–40 characters not glued to another word character, plus the abbreviated SHA in
 * version strings built by `git describe` and its kin (`v2.4.0-12-g3f9a2c1`, `1.0.dev3+g3f9a2c1`).
 */
export const HEX_RUN = /(?:(?<![0-9A-Za-z_])|(?<=\d[-+.]g))[0-9a-fA-F]{7,40}(?![0-9A-Za-z_])/g;

export interface Match {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** All matches of a global regular expression (a fresh copy, so the caller's lastIndex is untouched). */
export function matchesOf(text: string, pattern: RegExp): Match[] {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  const re = new RegExp(pattern.source, flags);
  const out: Match[] = [];
  for (const m of text.matchAll(re)) {
    if (m[0].length === 0) continue;
    out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

/** Brackets and quotes that may close a sentence after its full stop. */
const SENTENCE_CLOSERS = ')]"\'\u201d\u2019';

/** Whether the text just before `at` ends a sentence: `.`, `!` or `?`, maybe followed by closing brackets or quotes. */
function endsSentence(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && SENTENCE_CLOSERS.includes(text[k]!)) k -= 1;
  return k >= 0 && /[.!?]/.test(text[k]!);
}

/**
 * The sentence around `[start, end)`: from the previous sentence end (`.`, `!` or `?`, with any
 * closing brackets or quotes, followed by white space) or line break, to the next one (the closing
 * punctuation included, the line break not). Leading white space is left out.
 */
export function sentenceAround(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  while (s > 0) {
    const prev = text[s - 1]!;
    if (prev === '\n') break;
    if (/\s/.test(prev) && endsSentence(text, s - 1)) break;
    s -= 1;
  }
  while (s < start && /[ \t]/.test(text[s]!)) s += 1;
  let e = Math.max(end, s);
  while (e < text.length) {
    const c = text[e]!;
    if (c === '\n' || c === '\r') break;
    if (/[.!?]/.test(c)) {
      // A closing bracket or quote after the full stop ends the sentence with it: "(Found by bisection.)".
      let after = e + 1;
      while (after < text.length && SENTENCE_CLOSERS.includes(text[after]!)) after += 1;
      if (after === text.length || /\s/.test(text[after]!)) {
        e = after;
        break;
      }
    }
    e += 1;
  }
  return { start: s, end: e };
}

/** Line boundaries: [start, end) of each line, `end` including its line break. */
export function linesOf(text: string): { start: number; end: number; content: string }[] {
  const out: { start: number; end: number; content: string }[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl + 1;
    out.push({ start: at, end, content: text.slice(at, nl === -1 ? text.length : nl).replace(/\r$/, '') });
    at = end;
  }
  return out;
}
