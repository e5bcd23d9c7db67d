/**
 * The offline thread and pull-request format (JSONL, one object per line), shared by
 * `r2v import`, `r2v threads export` and anyone else who reads such dumps. Pure: values in,
 * rows or a one-line reason out.
 *
 * Thread line: {"repo": "owner/name", "issue": <REST issue>, "comments": [<REST issue comment>],
 *               "pull_request": <REST pull, optional>, "closing_issues": [numbers, optional],
 *               "commits": [{"sha", "commit": {"message"}}, optional, read with pull_request]}
 * Pull line:   {"repo": "owner/name", "pull": <REST pull>, "commits": [...], "closing_issues": [...]}
 *              or a REST pull object itself carrying `commits` / `closing_issues` (repo from
 *              `repo` or base.repo.full_name).
 */
import { z } from 'zod';
import { RepoName } from '../config.js';
import type { CommentRow, LinkRow, PullRow, ThreadRow } from '../store/tables/sources.js';
import { mergeLinks, toCommentRow, toPullRow, toThreadRow } from './discover.js';
import { findClosingReferences } from './links.js';
import { RestComment, RestCommit, RestIssue, RestPull, firstIssue, toComment, toIssue, toPullCommit, toPullRequest } from './schema.js';

export const IMPORT_SOURCE = 'import';

const Login = z.object({ login: z.string().min(1) });
const Repo = RepoName;

export const ImportIssue = RestIssue.extend({ body: z.string().nullable(), user: Login });
export const ImportComment = RestComment.extend({ body: z.string().nullable(), user: Login });
export const ImportPull = RestPull.extend({ user: Login });
const Numbers = z.array(z.number().int().positive());

export const ThreadLine = z.object({
  repo: Repo,
  issue: ImportIssue,
  comments: z.array(ImportComment).default([]),
  pull_request: ImportPull.nullable().optional(),
  closing_issues: Numbers.optional(),
  commits: z.array(RestCommit).optional(),
});
export type ThreadLine = z.infer<typeof ThreadLine>;

export const PullLine = z.object({
  repo: Repo,
  pull: ImportPull,
  commits: z.array(RestCommit).default([]),
  closing_issues: Numbers.default([]),
});
export type PullLine = z.infer<typeof PullLine>;

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export function parseThreadLine(value: unknown): Parsed<ThreadLine> {
  const r = ThreadLine.safeParse(value);
  if (!r.success) return { ok: false, reason: firstIssue(r.error) };
  const pr = r.data.pull_request;
  if (pr && pr.number !== r.data.issue.number) {
    return { ok: false, reason: `pull_request.number ${pr.number} differs from issue.number ${r.data.issue.number}` };
  }
  return { ok: true, value: r.data };
}

export function parsePullLine(value: unknown): Parsed<PullLine> {
  let shaped: unknown = value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('pull' in value)) {
    const v = value as Record<string, unknown>;
    const base = v.base as { repo?: { full_name?: unknown } } | undefined;
    shaped = { repo: v.repo ?? base?.repo?.full_name, pull: v, commits: v.commits, closing_issues: v.closing_issues };
  }
  const r = PullLine.safeParse(shaped);
  if (!r.success) return { ok: false, reason: firstIssue(r.error) };
  return { ok: true, value: r.data };
}

export interface ImportRows {
  readonly repo: string;
  readonly thread: ThreadRow | null;
  readonly comments: CommentRow[];
  /** Only merged pull requests are stored. */
  readonly pull: PullRow | null;
  readonly links: LinkRow[];
}

export function threadLineRows(line: ThreadLine): ImportRows {
  const issue = toIssue(line.issue);
  const isPull = issue.isPull || Boolean(line.pull_request);
  const thread = toThreadRow(line.repo, { ...issue, isPull }, IMPORT_SOURCE);
  const comments = line.comments.map((c) => toCommentRow(line.repo, toComment(c, issue.number)!));
  const pr = line.pull_request ? toPullRequest(line.pull_request) : null;
  if (!pr || pr.mergedAt === null) return { repo: line.repo, thread, comments, pull: null, links: [] };
  const commits = (line.commits ?? []).map(toPullCommit);
  return {
    repo: line.repo,
    thread,
    comments,
    pull: toPullRow(line.repo, pr, commits, IMPORT_SOURCE),
    links: importLinks(line.repo, pr.number, pr.title, pr.body, commits, line.closing_issues ?? []),
  };
}

export function pullLineRows(line: PullLine): ImportRows {
  const pr = toPullRequest(line.pull);
  const commits = line.commits.map(toPullCommit);
  if (pr.mergedAt === null) return { repo: line.repo, thread: null, comments: [], pull: null, links: [] };
  return {
    repo: line.repo,
    thread: null,
    comments: [],
    pull: toPullRow(line.repo, pr, commits, IMPORT_SOURCE),
    links: importLinks(line.repo, pr.number, pr.title, pr.body, commits, line.closing_issues),
  };
}

/** Links of an imported pull: its closing_issues (how 'import') plus every closing keyword. */
export function importLinks(
  repo: string,
  pull: number,
  title: string,
  body: string,
  commits: readonly { sha: string; message: string }[],
  closing: readonly number[],
): LinkRow[] {
  const found: { issue: number; how: string; evidence: string }[] = closing.map((n) => ({ issue: n, how: 'import', evidence: 'closing_issues' }));
  for (const r of findClosingReferences(title, repo)) found.push({ issue: r.issue, how: 'keyword-title', evidence: r.evidence });
  for (const r of findClosingReferences(body, repo)) found.push({ issue: r.issue, how: 'keyword-body', evidence: r.evidence });
  for (const c of commits) {
    for (const r of findClosingReferences(c.message, repo)) found.push({ issue: r.issue, how: 'keyword-commit', evidence: `${c.sha.slice(0, 12)}: ${r.evidence}` });
  }
  return mergeLinks(repo, pull, found);
}

/** How a stored link becomes `closing_issues` when exported. */
const CLOSING_HOWS: ReadonlySet<string> = new Set(['import', 'closing-references']);

/** A stored thread back in the import format (the inverse of threadLineRows for what it stores). */
export function toThreadLine(thread: ThreadRow, comments: readonly CommentRow[], pull: PullRow | undefined, links: readonly LinkRow[]): Record<string, unknown> {
  const issue: Record<string, unknown> = {
    number: thread.number,
    title: thread.title,
    body: thread.body,
    user: { login: thread.author },
    state: thread.state,
    created_at: thread.createdAt,
    updated_at: thread.updatedAt,
    closed_at: thread.closedAt,
    html_url: thread.htmlUrl,
  };
  if (thread.kind === 'pull') issue.pull_request = {};
  const line: Record<string, unknown> = {
    repo: thread.repo,
    issue,
    comments: comments.map((c) => ({
      id: c.commentId,
      user: { login: c.author },
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      body: c.body,
      html_url: c.htmlUrl,
    })),
  };
  if (pull) {
    line.pull_request = toRestPull(pull);
    line.commits = pull.commitShas.map((sha, i) => ({ sha, commit: { message: pull.commitMessages[i] ?? '' } }));
    const closing = [...new Set(links.filter((l) => l.pull === pull.number && CLOSING_HOWS.has(l.how)).map((l) => l.issue))].sort((a, b) => a - b);
    line.closing_issues = closing;
  }
  return line;
}

function toRestPull(p: PullRow): Record<string, unknown> {
  return {
    number: p.number,
    title: p.title,
    body: p.body,
    user: { login: p.author },
    state: p.state,
    draft: p.draft,
    base: { ref: p.baseRef, sha: p.baseSha },
    head: { ref: p.headRef, sha: p.headSha },
    merge_commit_sha: p.mergeCommitSha,
    created_at: p.createdAt,
    merged_at: p.mergedAt,
    html_url: p.htmlUrl,
  };
}
