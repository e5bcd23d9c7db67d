/**
 * GitHub's closing keywords (close/closes/closed, fix/fixes/fixed, resolve/resolves/resolved,
 * optional colon) followed by `#N`, `owner/name#N` or an issue URL of the same repository.
 * Every match counts, not only the first. Text inside fenced code blocks and back-quoted code
 * spans is ignored, as GitHub does when it renders Markdown.
 */
export interface ClosingReference {
  readonly issue: number;
  /** The keyword as written (lower-cased), e.g. `fixes`. */
  readonly keyword: string;
  /** The matched text, e.g. `Fixes #12`. */
  readonly evidence: string;
}

const KEYWORD = '(close[sd]?|fix(?:e[sd])?|resolve[sd]?)';
const REF = String.raw`(?:#(\d+)|([A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9._-]+)#(\d+)|https?:\/\/[^\s/]+\/([A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9._-]+)\/issues\/(\d+))`;
const PATTERN = new RegExp(String.raw`(?<![\w/-])${KEYWORD}:?[ \t]+${REF}(?![\w/])`, 'gi');

/** `repo` may list several names of one repository (its current and former names). */
export function findClosingReferences(text: string, repo: string | readonly string[]): ClosingReference[] {
  const visible = blankCode(text);
  const names = new Set((typeof repo === 'string' ? [repo] : repo).map((r) => r.toLowerCase()));
  const out: ClosingReference[] = [];
  for (const m of visible.matchAll(PATTERN)) {
    const [, keyword, shortN, otherRepo, otherN, urlRepo, urlN] = m;
    let issue: string | undefined;
    if (shortN) issue = shortN;
    else if (otherRepo && names.has(otherRepo.toLowerCase())) issue = otherN;
    else if (urlRepo && names.has(urlRepo.toLowerCase())) issue = urlN;
    if (!issue) continue;
    const n = Number(issue);
    if (!Number.isSafeInteger(n) || n <= 0) continue;
    out.push({ issue: n, keyword: keyword!.toLowerCase(), evidence: text.slice(m.index, m.index + m[0].length) });
  }
  return out;
}

/**
 * Replaces fenced code blocks and inline code spans with spaces (same length, so offsets into
 * the result are offsets into the original).
 */
export function blankCode(text: string): string {
  const blank = (s: string): string => s.replace(/[^\n]/g, ' ');
  // Fenced blocks: a line opening with ``` or ~~~ up to the matching closing fence (or the end).
  let out = text.replace(/^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]{0,3}\1[ \t]*$|(?![\s\S]))/gm, blank);
  // Inline code: a run of N back-quotes up to the next run of exactly N back-quotes.
  out = out.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, blank);
  return out;
}
