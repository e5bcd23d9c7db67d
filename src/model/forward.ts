/** Shared shapes of the Forward task's stored records, and the Forward case id. */
import { caseId } from '../util/case-id.js';

export interface ReasonRow {
  readonly code: string;
  readonly evidence: string;
}

/** The event context a routing decision is made in (the one definition; routing/ re-exports it). */
export interface RouteContext {
  readonly event: 'pull_request';
  readonly action: string;
  readonly base_branch: string;
  /** The pull request has a merge conflict (ROUTING.md §16): `pull_request` workflows do not run, `pull_request_target` ones do. */
  readonly merge_conflict?: boolean;
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

export type AlternativeKind = 'drop-path' | 'add-test' | 'move-to-sibling' | 'add-shared';

export interface StabilityDetail {
  readonly kind: AlternativeKind;
  readonly description: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export interface Stability {
  readonly alternatives: number;
  readonly changed: number;
  /** changed / alternatives (0 when there are no alternatives). */
  readonly fraction: number;
  readonly threshold: number;
  readonly unstable: boolean;
  /** Workflows whose activation flips under at least one alternative, with how often. */
  readonly flips: readonly { readonly workflow: string; readonly count: number }[];
  /** Only the alternatives that change the gold. */
  readonly details: readonly StabilityDetail[];
}

/** The repository prior: the most frequent workflow set of one-path changes. */
export interface Prior {
  /** The most frequent activated set when each tracked path is routed as its own one-path change. */
  readonly workflows: readonly string[];
  /** How many of the paths produced that set. */
  readonly count: number;
  /** How many paths were routed. */
  readonly paths: number;
  /** How many distinct sets occurred. */
  readonly sets: number;
}

/** The labels of a Forward case. */
export interface Labels {
  /** Local: Δ* within one top-level directory (root files count as one directory, ""); Cross: several. */
  readonly scope: 'local' | 'cross';
  readonly top_level: readonly string[];
  readonly changed_paths: number;
  /** Workflow files present at base. */
  readonly workflows: number;
}
