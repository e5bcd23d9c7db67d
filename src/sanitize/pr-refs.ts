import type { Span } from './delete.js';
import { escapeRegExp, matchesOf } from './text.js';

export const PR_REF_DETECTOR = 'pr-ref';

/**
 * References to the given pull requests (the culprit's and the fix's): `#N`, `owner/name#N` and
 * `GH-N`. Other issue numbers stay.
 */
export function detectPrRefs(text: string, repo: string, prNumbers: readonly number[]): Span[] {
  if (prNumbers.length === 0) return [];
  const wanted = new Set(prNumbers.map(String));
  const pattern = new RegExp(String.raw`(?<![\w&/#-])(?:(?:${escapeRegExp(repo)})?#|GH-)(\d+)(?!\w)`, 'gi');
  return matchesOf(text, pattern)
    .filter((m) => wanted.has(m.text.replace(/^.*?(?:#|GH-)/i, '')))
    .map((m) => ({ start: m.start, end: m.end, detector: PR_REF_DETECTOR }));
}
