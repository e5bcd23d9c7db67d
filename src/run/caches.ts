import type { PullIndex } from '../backward/pull-index.js';
import type { RepoHistory } from '../baselines/history.js';
import type { ConditionResult } from '../pairs/tests.js';
import type { PrSplit } from '../pairs/validate.js';

/**
 * What a run computes once and shares between the items of its stages. Each member belongs to
 * one stage and lives as long as the run (a new run starts empty), so what is kept here never
 * outlives the rows it was read from. Keys of the per-repository maps are lower-cased `owner/name`.
 */
export interface RunCaches {
  /** resolve: each repository's pull requests and fix links, indexed once per run. */
  readonly resolvePulls: Map<string, PullIndex>;
  /** admit: each repository's visible-history index (baselines, history-based labels). */
  readonly baselineHistories: Map<string, RepoHistory>;
  /**
   * forward-screen: the one-path routes of a few recent sets of workflows and contexts (successive
   * bases usually share one), in insertion order; see memoizeOnePath.
   */
  readonly forwardOnePathRoutes: Map<string, Map<string, readonly string[]>>;
  /** pairs: test runs of one condition (git dir, commits, command), shared by the pairs that meet it. */
  readonly pairConditionRuns: Map<string, Promise<ConditionResult>>;
  /** pairs: the test/code split of a pull request, keyed by git dir, PR and commits. */
  readonly pairSplits: Map<string, Promise<PrSplit>>;
}

export function createRunCaches(): RunCaches {
  return {
    resolvePulls: new Map(),
    baselineHistories: new Map(),
    forwardOnePathRoutes: new Map(),
    pairConditionRuns: new Map(),
    pairSplits: new Map(),
  };
}
