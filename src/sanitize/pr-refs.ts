import type { Span } from '../model/deletions.js';
import type { Report } from './report.js';
import { escapeRegExp, matchesOf } from './text.js';

export const PR_REF_DETECTOR = 'pr-ref';

/**
 * References to the given pull requests (the culprit's and the fix's): `#N`, `owner/name#N` and
 * `GH-N`. Other issue numbers stay.
 */
export function detectPrRefs(text: string, repo: string, prNumbers: readonly number[]): Span[] {
  if (prNumbers.length === 0) return [];
  const wanted = new Set(prNumbers.map(String));
  // Also spelt out: "PR 226", "Pull 226", "pull request 226", and a title "Revert 226".
  const pattern = new RegExp(String.raw`(?<![\w&/#-])(?:(?:${escapeRegExp(repo)})?#|GH-|(?:PR|pull(?:\s+request)?|revert)\s+#?)(\d+)(?!\w)`, 'gi');
  return matchesOf(text, pattern)
    .filter((m) => wanted.has(/(\d+)$/.exec(m.text)![1]!))
    .map((m) => ({ start: m.start, end: m.end, detector: PR_REF_DETECTOR }));
}

export const TITLE_PR_SUFFIX_DETECTOR = 'title-pr-suffix';

/**
 * A pull-request number closing the title, `… (#123)` or `… (owner/name#123)`: the suffix GitHub
 * gives squash-merged and cherry-picked changes. It names the change the title describes, which
 * in a regression thread is the fix or the culprit, so it goes whatever its number.
 */
export function detectTitlePrSuffix(report: Report): Span[] {
  const title = report.segments.find((s) => s.post === null);
  if (!title) return [];
  const text = report.text.slice(title.start, title.start + title.length);
  const m = /\s*\((?:[\w.-]+\/[\w.-]+)?#\d+\)\s*$/.exec(text);
  return m ? [{ start: title.start + m.index, end: title.start + m.index + m[0].length, detector: TITLE_PR_SUFFIX_DETECTOR }] : [];
}
