/**
 * What the discover stage fetches for one repository (through the port) and the pure functions
 * that turn it into rows of the core tables.
 */
import type { CommentRow, LinkRow, PullRow, RepoRow, ThreadRow } from '../store/tables/sources.js';
import { findClosingReferences } from './links.js';
import type { CrossReference, GitHubPort, Issue, IssueComment, PullCommit, PullRequest, RepoInfo } from './port.js';

export type DiscoverMode = 'sync' | 'search';

/** The bisect vocabulary of search mode (GitHub allows at most five OR per query: see SEARCH_QUERIES). */
export const BISECT_TERMS: readonly string[] = [
  '"first bad commit"',
  '"git bisect"',
  'bisected',
  '"bisect found"',
  '"regression introduced by"',
  '"introduced by commit"',
  '"caused by commit"',
  '"bisecting"',
];

/** The vocabulary as search queries of at most four terms (three ORs) each. */
export const SEARCH_QUERIES: readonly string[] = chunk(BISECT_TERMS, 4).map((terms) => terms.join(' OR '));

/** The search API returns at most this many results per query; slices above it are split. */
export const SEARCH_CAP = 1000;

/** A lagged cursor: `since` is used for requests; `next` becomes `since` after the next change. */
export interface LaggedCursor {
  readonly since: string | null;
  readonly next: string | null;
}

export interface PullFetch {
  readonly pull: PullRequest;
  readonly commits: PullCommit[];
  readonly closing: number[];
  readonly crossReferences: CrossReference[];
}

export interface DiscoverFetch {
  readonly repo: string;
  readonly mode: DiscoverMode;
  readonly info: RepoInfo;
  readonly threads: Issue[];
  /** Comments from the repository-wide stream (upserted one by one). */
  readonly comments: IssueComment[];
  /** Threads whose complete comment list was read (their stored comments are replaced). */
  readonly commentLists: { number: number; comments: IssueComment[] }[];
  readonly pulls: PullFetch[];
  readonly cursors: Record<string, LaggedCursor>;
  readonly dropped: number;
  /** Search slices that stayed above the cap (a one-second range with over 1,000 results). */
  readonly incompleteSlices: string[];
}

export interface DiscoverRows {
  readonly repo: RepoRow;
  readonly threads: ThreadRow[];
  readonly comments: CommentRow[];
  readonly commentLists: { number: number; rows: CommentRow[] }[];
  readonly pulls: PullRow[];
  readonly links: Map<number, LinkRow[]>;
}

export interface FetchOptions {
  readonly mode: DiscoverMode;
  readonly cursors: Record<string, LaggedCursor>;
  readonly now: () => Date;
  /** Whether a thread is already stored (linked issues already stored are not fetched again). */
  readonly isStored: (number: number) => boolean;
  /** Results per search query above which a date slice is split (GitHub's cap: 1,000). */
  readonly searchCap?: number;
}

/** All I/O of discovering one repository, through the port only. */
export async function fetchRepository(port: GitHubPort, repo: string, options: FetchOptions): Promise<DiscoverFetch> {
  const info = await port.getRepository(repo);
  // A renamed or transferred repository answers under its current name (GitHub redirected the
  // request): later calls use that name (search knows no former names); rows stay under `repo`.
  const api = info.name && info.name.includes('/') ? info.name : repo;
  let dropped = 0;
  const threads = new Map<number, Issue>();
  const comments: IssueComment[] = [];
  const commentLists: { number: number; comments: IssueComment[] }[] = [];
  const cursors: Record<string, LaggedCursor> = {};
  const incompleteSlices: string[] = [];

  if (options.mode === 'sync') {
    const issueCursor = options.cursors.issues ?? { since: null, next: null };
    const issues = await port.listIssues(api, { since: issueCursor.since });
    for (const i of issues.items) threads.set(i.number, i);
    dropped += issues.dropped;
    cursors.issues = advanceCursor(issueCursor, issues.unchanged, issues.items.map((i) => i.updatedAt ?? i.createdAt));
    const commentCursor = options.cursors.comments ?? { since: null, next: null };
    const listed = await port.listRepoComments(api, { since: commentCursor.since });
    comments.push(...listed.items);
    dropped += listed.dropped;
    cursors.comments = advanceCursor(commentCursor, listed.unchanged, listed.items.map((c) => c.updatedAt ?? c.createdAt));
  } else {
    const start = info.createdAt ?? '2008-01-01T00:00:00Z';
    for (const q of SEARCH_QUERIES) {
      const found = await searchSliced(port, api, q, Date.parse(start), null, { now: options.now(), cap: options.searchCap ?? SEARCH_CAP }, incompleteSlices);
      dropped += found.dropped;
      for (const i of found.items) threads.set(i.number, i);
    }
    for (const t of [...threads.values()].sort((a, b) => a.number - b.number)) {
      const listed = await port.listIssueComments(api, t.number);
      dropped += listed.dropped;
      commentLists.push({ number: t.number, comments: listed.items });
    }
  }

  const pulls: PullFetch[] = [];
  const closed = await port.listClosedPulls(api);
  dropped += closed.dropped;
  for (const pull of closed.items.filter((p) => p.mergedAt !== null).sort((a, b) => a.number - b.number)) {
    const commits = await port.listPullCommits(api, pull.number);
    dropped += commits.dropped;
    const closing = await port.closingIssues(api, pull.number, pull.updatedAt);
    const refs = await port.listCrossReferences(api, pull.number);
    pulls.push({ pull, commits: commits.items, closing, crossReferences: refs.items });
  }

  // The linked issues' threads, when neither this run nor an earlier one has them.
  const pullNumbers = new Set(pulls.map((p) => p.pull.number));
  const linked = new Set<number>();
  for (const p of pulls) for (const l of linksForPull(repo, p, [api])) if (!pullNumbers.has(l.issue)) linked.add(l.issue);
  for (const n of [...linked].sort((a, b) => a - b)) {
    if (threads.has(n) || options.isStored(n)) continue;
    threads.set(n, await port.getIssue(api, n));
    const listed = await port.listIssueComments(api, n);
    dropped += listed.dropped;
    commentLists.push({ number: n, comments: listed.items });
  }

  return {
    repo,
    mode: options.mode,
    info,
    threads: [...threads.values()].sort((a, b) => a.number - b.number),
    comments,
    commentLists,
    pulls,
    cursors,
    dropped,
    incompleteSlices,
  };
}

/**
 * Search with creation-date slicing: a slice whose total is above the cap is split in two
 * (inclusive bounds, to the second) until each slice fits. The last slice stays open-ended
 * (`..*`), so an unchanged repository repeats the same URLs and gets 304s.
 */
export async function searchSliced(
  port: GitHubPort,
  repo: string,
  q: string,
  fromMs: number,
  toMs: number | null,
  limits: { readonly now: Date; readonly cap: number },
  incomplete: string[],
): Promise<{ items: Issue[]; dropped: number }> {
  const range = `created:${isoSecond(fromMs)}..${toMs === null ? '*' : isoSecond(toMs)}`;
  const page = await port.searchIssues(repo, `${q} ${range}`, limits.cap);
  if (page.complete) return { items: page.items, dropped: page.dropped };
  const end = toMs ?? limits.now.getTime();
  if (end - fromMs < 2000) {
    incomplete.push(`${q} ${range}`);
    return { items: page.items, dropped: page.dropped };
  }
  const mid = fromMs + Math.floor((end - fromMs) / 2000) * 1000;
  const a = await searchSliced(port, repo, q, fromMs, mid, limits, incomplete);
  const b = await searchSliced(port, repo, q, mid + 1000, toMs, limits, incomplete);
  return { items: [...a.items, ...b.items], dropped: a.dropped + b.dropped };
}

function isoSecond(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The cursor lags one change behind: an unchanged list keeps its URL (so the next run is
 * answered by 304s, which cost no rate limit), and after a change the request moves to the
 * newest update seen by the run before, so a busy repository still reads only recent changes.
 */
export function advanceCursor(prev: LaggedCursor, unchanged: boolean, updatedTimes: readonly string[]): LaggedCursor {
  if (unchanged) return prev;
  let next = prev.next;
  for (const t of updatedTimes) if (next === null || t > next) next = t;
  return { since: prev.next, next };
}

/** Every link of one merged pull request, one row per (issue, how), evidence joined. */
export function linksForPull(repo: string, p: PullFetch, otherNames: readonly string[] = []): LinkRow[] {
  const names = [repo, ...otherNames];
  const found: { issue: number; how: string; evidence: string }[] = [];
  for (const n of p.closing) found.push({ issue: n, how: 'closing-references', evidence: 'closingIssuesReferences' });
  for (const r of findClosingReferences(p.pull.title, names)) found.push({ issue: r.issue, how: 'keyword-title', evidence: r.evidence });
  for (const r of findClosingReferences(p.pull.body, names)) found.push({ issue: r.issue, how: 'keyword-body', evidence: r.evidence });
  for (const c of p.commits) {
    for (const r of findClosingReferences(c.message, names)) {
      found.push({ issue: r.issue, how: 'keyword-commit', evidence: `${c.sha.slice(0, 12)}: ${r.evidence}` });
    }
  }
  for (const x of p.crossReferences) {
    if (x.sourceIsPull) continue;
    found.push({ issue: x.source, how: 'timeline', evidence: `cross-referenced from #${x.source}${x.createdAt ? ` at ${x.createdAt}` : ''}` });
  }
  return mergeLinks(repo, p.pull.number, found);
}

/** Groups (issue, how) pairs, drops self-references, joins distinct evidence in order. */
export function mergeLinks(repo: string, pull: number, found: readonly { issue: number; how: string; evidence: string }[]): LinkRow[] {
  const byKey = new Map<string, LinkRow & { parts: string[] }>();
  for (const f of found) {
    if (f.issue === pull) continue;
    const key = `${f.issue}\u0000${f.how}`;
    const row = byKey.get(key) ?? { repo, issue: f.issue, pull, how: f.how, evidence: '', parts: [] };
    if (!row.parts.includes(f.evidence)) row.parts.push(f.evidence);
    byKey.set(key, row);
  }
  return [...byKey.values()]
    .map(({ parts, ...row }) => ({ ...row, evidence: parts.join(' | ') }))
    .sort((a, b) => a.issue - b.issue || (a.how < b.how ? -1 : a.how > b.how ? 1 : 0));
}

export function toThreadRow(repo: string, i: Issue, source: string): ThreadRow {
  return {
    repo,
    number: i.number,
    kind: i.isPull ? 'pull' : 'issue',
    title: i.title,
    body: i.body,
    author: i.author,
    state: i.state,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
    closedAt: i.closedAt,
    htmlUrl: i.htmlUrl,
    source,
  };
}

export function toCommentRow(repo: string, c: IssueComment): CommentRow {
  return {
    repo,
    number: c.issueNumber,
    commentId: c.id,
    author: c.author,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    body: c.body,
    htmlUrl: c.htmlUrl,
  };
}

export function toPullRow(repo: string, p: PullRequest, commits: readonly PullCommit[], source: string): PullRow {
  return {
    repo,
    number: p.number,
    title: p.title,
    body: p.body,
    author: p.author,
    state: p.state,
    draft: p.draft,
    baseRef: p.baseRef,
    baseSha: p.baseSha,
    headRef: p.headRef,
    headSha: p.headSha,
    mergeCommitSha: p.mergeCommitSha,
    createdAt: p.createdAt,
    mergedAt: p.mergedAt,
    htmlUrl: p.htmlUrl,
    commitShas: commits.map((c) => c.sha),
    commitMessages: commits.map((c) => c.message),
    source,
  };
}

/** Pure: the rows one discover item saves. */
export function buildDiscoverRows(f: DiscoverFetch, now: Date): DiscoverRows {
  const source = 'github';
  return {
    repo: {
      name: f.repo,
      defaultBranch: f.info.defaultBranch,
      isFork: f.info.isFork,
      parent: f.info.parent,
      htmlUrl: f.info.htmlUrl,
      source,
      updatedAt: now.toISOString(),
    },
    threads: f.threads.map((t) => toThreadRow(f.repo, t, source)),
    comments: f.comments.map((c) => toCommentRow(f.repo, c)),
    commentLists: f.commentLists.map((l) => ({ number: l.number, rows: l.comments.map((c) => toCommentRow(f.repo, c)) })),
    pulls: f.pulls.map((p) => toPullRow(f.repo, p.pull, p.commits, source)),
    links: new Map(f.pulls.map((p) => [p.pull.number, linksForPull(f.repo, p, f.info.name ? [f.info.name] : [])])),
  };
}

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
