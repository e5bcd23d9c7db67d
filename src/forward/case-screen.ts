/**
 * Forward screening of one case: the agent-visible issue, the stability and prior signals, the
 * labels, and the decision. Pure: everything read from the store and git is passed in.
 */
import { ValidationError } from '../errors.js';
import type { CommentRow, PullRow, ThreadRow } from '../store/tables/sources.js';
import type { CaseDecision, CaseRecord } from '../store/tables/forward.js';
import { forwardCaseId, type ReasonRow } from '../model/forward.js';
import { buildIssueText } from './issue-text.js';
import { labelsOf, sameSet } from './prior.js';
import type { Prior } from '../model/forward.js';
import { alternativeScopes, measureStability } from './stability.js';

/** What screening reads of the issue, its comments and the fixing pull request. */
export type ScreenedIssue = Pick<ThreadRow, 'number' | 'title' | 'body' | 'createdAt'>;
export type ScreenedComment = Pick<CommentRow, 'commentId' | 'author' | 'createdAt' | 'body'>;
export type ScreenedPull = Pick<PullRow, 'number' | 'createdAt' | 'commitShas' | 'headSha' | 'mergeCommitSha'>;

export interface ScreenInput {
  readonly repo: string;
  readonly issue: ScreenedIssue;
  readonly comments: readonly ScreenedComment[];
  readonly pull: ScreenedPull;
  /** Flags carried from the link stage (multi-link). */
  readonly linkFlags: readonly ReasonRow[];
  readonly base: string;
  readonly head: string;
  readonly baseRef: string;
  readonly changed: readonly string[];
  readonly gold: readonly string[];
  /** Workflow files GitHub loads at base. */
  readonly workflowCount: number;
  /** Tracked paths at base. */
  readonly tree: readonly string[];
  readonly imports: ReadonlyMap<string, readonly string[]>;
  readonly activatedFor: (paths: readonly string[]) => readonly string[];
  readonly prior: Prior;
}

export function screenCase(input: ScreenInput): CaseRecord {
  const { repo, issue, pull } = input;
  for (const [what, value] of [
    [`issue #${issue.number} created_at`, issue.createdAt],
    [`pull request #${pull.number} created_at`, pull.createdAt],
    ...input.comments.map((c) => [`comment ${c.commentId} created_at`, c.createdAt] as const),
  ] as const) {
    if (Number.isNaN(Date.parse(value))) throw new ValidationError(`${repo}: ${what} ${JSON.stringify(value)} is not a date`);
  }
  const reasons: ReasonRow[] = [];
  const flags: ReasonRow[] = [...input.linkFlags];
  if (!(Date.parse(issue.createdAt) < Date.parse(pull.createdAt))) {
    reasons.push({
      code: 'issue-after-pr',
      evidence: `issue #${issue.number} was opened at ${issue.createdAt}, not before pull request #${pull.number} (${pull.createdAt})`,
    });
  }
  const text = buildIssueText(
    {
      title: issue.title,
      body: issue.body,
      createdAt: issue.createdAt,
      comments: input.comments.map((c) => ({ author: c.author, createdAt: c.createdAt, body: c.body, id: c.commentId })),
    },
    {
      repo,
      number: pull.number,
      createdAt: pull.createdAt,
      commitShas: [...pull.commitShas, pull.headSha, ...(pull.mergeCommitSha ? [pull.mergeCommitSha] : [])],
    },
  );
  const stability = measureStability(
    input.gold,
    alternativeScopes({ changed: input.changed, tree: input.tree, imports: input.imports }),
    input.activatedFor,
  );
  if (stability.unstable) {
    flags.push({
      code: 'scope-ambiguous',
      evidence: `${stability.changed} of ${stability.alternatives} alternative scopes change the gold (threshold ${stability.threshold}); flips: ${stability.flips.map((f) => f.workflow).join(', ')}`,
    });
  }
  // Equality with the repository prior is recorded, never a flag: the prior is a baseline, and
  // filtering the cases it answers would make it unmeasurable and bias the benchmark.
  const priorEqual = sameSet(input.prior.workflows, input.gold);
  const decision: CaseDecision = reasons.length > 0 ? 'reject' : flags.length > 0 ? 'review' : 'candidate';
  return {
    repo,
    issue: issue.number,
    pull: pull.number,
    caseId: forwardCaseId(repo, issue.number, pull.number, { base: input.base, head: input.head, baseRef: input.baseRef }),
    issueText: text.text,
    deletions: text.deletions,
    excludedComments: text.excludedComments,
    stability,
    prior: { ...input.prior, equal: priorEqual },
    labels: labelsOf(input.changed, input.workflowCount),
    flags,
    decision,
    reasons,
  };
}
