import { sameCommitHex } from '../backward/refs.js';
import type { Span } from '../model/deletions.js';

export const SVN_REVISION_DETECTOR = 'svn-revision';

/** The Subversion revision `git svn` recorded in a commit message ("git-svn-id: <url>@5245 <uuid>"), or null. */
export function svnRevisionOf(message: string): number | null {
  const m = /^git-svn-id:\s+\S+@(\d+)\s/m.exec(`${message}\n`);
  return m ? Number(m[1]) : null;
}

/**
 * The revision a thread itself gives the gold as the text of a link to it ("broken in
 * [r5245](https://github.com/o/n/commit/098640b…)"), for a copy that is not at hand; or null.
 */
export function svnRevisionLinked(texts: readonly string[], gold: string): number | null {
  const re = /\[\s*`{0,3}\s*r(?:ev(?:ision)?\.?\s*)?(\d+)\s*`{0,3}\s*\]\(\s*https?:\/\/[^)\s]*\/commits?\/([0-9a-fA-F]{7,40})\b[^)]*\)/gi;
  for (const text of texts) {
    for (const m of text.matchAll(re)) if (sameCommitHex(m[2]!, gold)) return Number(m[1]);
  }
  return null;
}

/**
 * In a repository converted from Subversion the culprit is often named by its revision ("broken in
 * r5245", "Revision 5245", "rev 5245", "svn 5245"): written so, that number names the culprit as
 * surely as its SHA. Bare numbers are left alone (a line number, a count).
 */
export function detectSvnRevision(text: string, revision: number | null | undefined): Span[] {
  if (revision === null || revision === undefined) return [];
  const n = String(revision);
  const re = new RegExp(`(?<![\\w.#-])(?:r|rev\\.?\\s*|revision\\s+|svn\\s*(?:rev(?:ision)?\\s*)?)${n}(?!\\w|\\.\\d)`, 'gi');
  return [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length, detector: SVN_REVISION_DETECTOR }));
}
