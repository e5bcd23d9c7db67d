/**
 * The Forward gold of one case and the reasons that keep it out of the benchmark. Pure: the
 * routing evaluator is passed in.
 */
import { digestOf } from '../util/canonical.js';
import type { ReasonRow, RouteContext } from '../model/forward.js';

/** GitHub evaluates only the first 300 changed files (ROUTING.md §12); larger changes are rejected. */
export const PATH_LIMIT = 300;

export interface WorkflowText {
  path: string;
  text: string;
}

export interface RouteResult {
  readonly evaluator: string;
  readonly activated: readonly string[];
  readonly invalid: readonly { readonly path: string; readonly reason: string }[];
  readonly limitApplied: boolean;
  readonly explain: unknown;
}

export type RouteFn = (files: WorkflowText[], changedPaths: string[], ctx: RouteContext) => RouteResult;

export interface Gold {
  readonly context: RouteContext;
  readonly gold: string[];
  readonly invalid: { path: string; reason: string }[];
  readonly explain: unknown;
  readonly evaluator: string;
  readonly limitApplied: boolean;
  readonly inputDigests: { workflows: string; changed_paths: string; context: string };
  /** Empty when the case may go on; otherwise no-workflows, empty-change and/or path-limit. */
  readonly reasons: ReasonRow[];
}

/**
 * Routes the workflows at base against Δ*. `workflows` are the files under .github/workflows at
 * base; `isWorkflow` says which of them GitHub would load (directly in the directory, .yml/.yaml).
 * The gold of a rejected case is still computed and kept for audit.
 */
export function computeGold(
  workflows: readonly WorkflowText[],
  changed: readonly string[],
  context: RouteContext,
  routeFn: RouteFn,
  isWorkflow: (path: string) => boolean = () => true,
): Gold {
  const r = routeFn(
    workflows.map((w) => ({ path: w.path, text: w.text })),
    [...changed],
    context,
  );
  const reasons: ReasonRow[] = [];
  const loaded = workflows.filter((w) => isWorkflow(w.path));
  if (loaded.length === 0) {
    reasons.push({ code: 'no-workflows', evidence: workflows.length === 0 ? 'no file under .github/workflows at base' : `no workflow file at base (${workflows.length} other files under .github/workflows)` });
  }
  if (changed.length === 0) reasons.push({ code: 'empty-change', evidence: 'the pull request changes no path' });
  if (changed.length > PATH_LIMIT) {
    reasons.push({ code: 'path-limit', evidence: `${changed.length} changed paths (limit ${PATH_LIMIT}); gold computed on the first ${PATH_LIMIT}` });
  }
  return {
    context,
    gold: [...r.activated].sort(),
    invalid: r.invalid.map((i) => ({ path: i.path, reason: i.reason })),
    explain: r.explain,
    evaluator: r.evaluator,
    limitApplied: r.limitApplied,
    inputDigests: { workflows: digestOf(workflows), changed_paths: digestOf(changed), context: digestOf(context) },
    reasons,
  };
}
