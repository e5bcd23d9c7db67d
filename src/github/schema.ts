import { z } from 'zod';
import type { CrossReference, Issue, IssueComment, PullCommit, PullRequest, RepoInfo } from './port.js';

/** Only the fields r2v reads. Unknown fields pass through untouched. */
const User = z.object({ login: z.string() }).nullable().optional();
const login = (u: { login: string } | null | undefined): string => u?.login ?? 'ghost';

export const RestRepo = z.object({
  full_name: z.string(),
  default_branch: z.string(),
  fork: z.boolean(),
  parent: z.object({ full_name: z.string() }).nullable().optional(),
  html_url: z.string(),
  created_at: z.string().nullable().optional(),
});
export type RestRepo = z.infer<typeof RestRepo>;

export const RestIssue = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullable().optional(),
  user: User,
  state: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
  closed_at: z.string().nullable().optional(),
  html_url: z.string(),
  pull_request: z.object({}).passthrough().nullable().optional(),
});
export type RestIssue = z.infer<typeof RestIssue>;

export const RestComment = z.object({
  id: z.number().int().positive(),
  user: User,
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  html_url: z.string().nullable().optional(),
  issue_url: z.string().optional(),
});
export type RestComment = z.infer<typeof RestComment>;

const Sha = z.string().regex(/^[0-9a-f]{40}$/i, 'must be a 40-hex SHA');

export const RestPull = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullable().optional(),
  user: User,
  state: z.string(),
  draft: z.boolean().nullable().optional(),
  base: z.object({ ref: z.string(), sha: Sha }),
  head: z.object({ ref: z.string().nullable().optional(), sha: Sha }),
  merge_commit_sha: Sha.nullable().optional(),
  created_at: z.string(),
  updated_at: z.string().nullable().optional(),
  merged_at: z.string().nullable().optional(),
  html_url: z.string(),
});
export type RestPull = z.infer<typeof RestPull>;

export const RestCommit = z.object({ sha: Sha, commit: z.object({ message: z.string() }) });
export type RestCommit = z.infer<typeof RestCommit>;

export const RestTimelineEvent = z.object({
  event: z.string().optional(),
  created_at: z.string().nullable().optional(),
  source: z
    .object({
      issue: z
        .object({
          number: z.number().int().positive(),
          pull_request: z.object({}).passthrough().nullable().optional(),
          repository: z.object({ full_name: z.string() }).nullable().optional(),
        })
        .optional(),
    })
    .nullable()
    .optional(),
});
export type RestTimelineEvent = z.infer<typeof RestTimelineEvent>;

export const ClosingIssuesAnswer = z.object({
  repository: z.object({
    pullRequest: z
      .object({
        closingIssuesReferences: z.object({
          nodes: z.array(
            z.object({ number: z.number().int().positive(), repository: z.object({ nameWithOwner: z.string() }) }).nullable(),
          ),
        }),
      })
      .nullable(),
  }),
});
export type ClosingIssuesAnswer = z.infer<typeof ClosingIssuesAnswer>;

/** Keeps the elements that match `schema` and counts the others (a bad element never fails a page). */
export function parseLooseArray<T>(schema: z.ZodType<T>, value: unknown): { items: T[]; dropped: number } {
  if (!Array.isArray(value)) return { items: [], dropped: 0 };
  const items: T[] = [];
  let dropped = 0;
  for (const element of value) {
    const r = schema.safeParse(element);
    if (r.success) items.push(r.data);
    else dropped += 1;
  }
  return { items, dropped };
}

/** One-line description of the first zod issue: `field: message`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`;
}

export function toRepoInfo(r: RestRepo): RepoInfo {
  return {
    name: r.full_name,
    defaultBranch: r.default_branch,
    isFork: r.fork,
    parent: r.parent?.full_name ?? null,
    htmlUrl: r.html_url,
    createdAt: r.created_at ?? null,
  };
}

export function toIssue(r: RestIssue): Issue {
  return {
    number: r.number,
    title: r.title,
    body: r.body ?? '',
    author: login(r.user),
    state: r.state ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at ?? null,
    closedAt: r.closed_at ?? null,
    htmlUrl: r.html_url,
    isPull: r.pull_request !== undefined && r.pull_request !== null,
  };
}

/** `issueNumber` comes from the argument or, for repository-wide lists, from issue_url. */
export function toComment(r: RestComment, issueNumber?: number): IssueComment | null {
  const n = issueNumber ?? Number(/\/issues\/(\d+)$/.exec(r.issue_url ?? '')?.[1]);
  if (!Number.isInteger(n) || n <= 0) return null;
  return {
    id: r.id,
    issueNumber: n,
    author: login(r.user),
    createdAt: r.created_at,
    updatedAt: r.updated_at ?? null,
    body: r.body ?? '',
    htmlUrl: r.html_url ?? null,
  };
}

export function toPullRequest(r: RestPull): PullRequest {
  return {
    number: r.number,
    title: r.title,
    body: r.body ?? '',
    author: login(r.user),
    state: r.state,
    draft: r.draft ?? false,
    baseRef: r.base.ref,
    baseSha: r.base.sha.toLowerCase(),
    headRef: r.head.ref ?? null,
    headSha: r.head.sha.toLowerCase(),
    mergeCommitSha: r.merge_commit_sha ? r.merge_commit_sha.toLowerCase() : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at ?? null,
    mergedAt: r.merged_at ?? null,
    htmlUrl: r.html_url,
  };
}

export function toPullCommit(r: RestCommit): PullCommit {
  return { sha: r.sha.toLowerCase(), message: r.commit.message };
}

/** Cross-references from threads of `repo` only (another repository's #N is not ours). */
export function toCrossReference(e: RestTimelineEvent, repo: string): CrossReference | null {
  if (e.event !== 'cross-referenced' || !e.source?.issue) return null;
  const from = e.source.issue.repository?.full_name;
  if (from && from.toLowerCase() !== repo.toLowerCase()) return null;
  return {
    source: e.source.issue.number,
    sourceIsPull: e.source.issue.pull_request !== undefined && e.source.issue.pull_request !== null,
    createdAt: e.created_at ?? null,
  };
}
