/** Shared shapes of the Forward task's stored records. */
import { caseId } from '../util/case-id.js';

export interface ReasonRow {
  readonly code: string;
  readonly evidence: string;
}

export interface RouteContext {
  readonly event: 'pull_request';
  readonly action: string;
  readonly base_branch: string;
}

/** Action of the fixed event context (DESIGN.md §1.2). */
export const FORWARD_ACTION = 'synchronize';

export function forwardContext(baseBranch: string, action = FORWARD_ACTION): RouteContext {
  return { event: 'pull_request', action, base_branch: baseBranch };
}

/**
 * The case id of a Forward pair. Its defining inputs are the pull request and, once recovered,
 * the base and head commits and the base branch: the same pair with the same S_t, Δ* and E keeps
 * its id.
 */
export function forwardCaseId(
  repo: string,
  issue: number,
  pull: number,
  recovered: { base: string | null; head: string | null; baseRef: string | null } | null,
): string {
  return caseId(repo, issue, {
    task: 'forward',
    pull,
    base: recovered?.base ?? null,
    head: recovered?.head ?? null,
    base_branch: recovered?.baseRef ?? null,
  });
}
