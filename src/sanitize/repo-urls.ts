import type { Span } from '../model/deletions.js';
import { escapeRegExp, matchesOf } from './text.js';

export const REPO_URL_DETECTOR = 'repo-url';

const URL_TAIL = String.raw`[^\s<>()\[\]"'\x60]*`;
const PAGES = 'commit|commits|compare|pull|pulls';
const TREES = 'tree|blob';

/** Web and API URLs of `repo` (any host, so GitHub Enterprise too) for the given page kinds. */
export function repoUrlPattern(repo: string, pages: string): RegExp {
  const name = escapeRegExp(repo);
  return new RegExp(String.raw`https?://[^\s/]+/(?:api/v3/)?(?:repos/)?${name}/(?:${pages})(?![\w-])(?:/${URL_TAIL})?`, 'gi');
}

function trimUrl(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /[.,;:!?'"*_]/.test(text[e - 1]!)) e -= 1;
  return e;
}

/** Extends a URL span over a Markdown link around it: `[text](url)` or `<url>`. */
function widen(text: string, start: number, end: number): { start: number; end: number } {
  if (text[start - 1] === '(' && text[start - 2] === ']' && text[end] === ')') {
    const open = text.lastIndexOf('[', start - 2);
    const nl = text.lastIndexOf('\n', start - 2);
    if (open !== -1 && open > nl) return { start: open, end: end + 1 };
  }
  if (text[start - 1] === '<' && text[end] === '>') return { start: start - 1, end: end + 1 };
  return { start, end };
}

/** Links to one comment of a thread (`…/issues/N#issuecomment-M`, any repository): the comment may hold the answer. */
const COMMENT_LINK = /https?:\/\/[^\s/]+\/[\w.-]+\/[\w.-]+\/(?:issues|pull)\/\d+#(?:issuecomment|discussion_r)-?\d+/gi;

/**
 * Commit, compare and pull-request URLs of the repository, and its tree/blob URLs at a hex
 * revision (a tree URL at a branch name says nothing about a commit and stays), and links to a
 * single comment of any thread.
 */
export function detectRepoUrls(text: string, repo: string): Span[] {
  const out: Span[] = [];
  for (const m of matchesOf(text, repoUrlPattern(repo, PAGES))) {
    const w = widen(text, m.start, trimUrl(text, m.start, m.end));
    out.push({ ...w, detector: REPO_URL_DETECTOR });
  }
  for (const m of matchesOf(text, COMMENT_LINK)) out.push({ ...widen(text, m.start, m.end), detector: REPO_URL_DETECTOR });
  for (const m of matchesOf(text, repoUrlPattern(repo, TREES))) {
    const end = trimUrl(text, m.start, m.end);
    if (!/\/(?:tree|blob)\/[0-9a-fA-F]{7,40}(?:[/#?]|$)/.test(text.slice(m.start, end))) continue;
    out.push({ ...widen(text, m.start, end), detector: REPO_URL_DETECTOR });
  }
  return out;
}
