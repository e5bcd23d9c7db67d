/**
 * The reference algorithm of ROUTING.md section 18, over workflows compiled once.
 * Pure: no I/O, no clock, no module state.
 */
import { ValidationError } from '../errors.js';
import { compileFile, DEFAULT_TYPES, DIFF_LIMIT, shortBranch, type CompiledFile, type CompiledTrigger, type CompiledWorkflow, type WorkflowFile } from './compile.js';
import { ContextPlan } from './fast.js';
import type { FilterKey, TriggerEvent } from './parse.js';
import { matchList } from './pattern.js';
import type { RouteContext } from '../model/forward.js';

export { DEFAULT_TYPES, DIFF_LIMIT, isWorkflowPath, type WorkflowFile } from './compile.js';

/**
 * Routes change sets under one fixed context: `activated(paths)` as `activatedFor(paths, ctx)`.
 * Answers may be shared between calls (the same array for paths routed alike): read-only.
 */
export interface Router {
  activated(changedPaths: readonly string[]): readonly string[];
}

/** Bump on any change of semantics; every stored gold records the id that computed it. */
export const EVALUATOR_ID = 'routing/1';

export type { RouteContext } from '../model/forward.js';

export interface InvalidWorkflow {
  readonly path: string;
  /** `<code>: <detail>`, the code one of `InvalidCode` (src/routing/parse.ts). */
  readonly reason: string;
}

export type PredicateName = 'types' | FilterKey;

export interface PredicateExplain {
  readonly predicate: PredicateName;
  readonly passed: boolean;
  /** One sentence saying why. */
  readonly detail: string;
  /** The deciding pattern as written: the last pattern in list order that matched `subject`. */
  readonly pattern?: string;
  /** The branch or changed path that `pattern` was matched against. */
  readonly subject?: string;
  /** Path predicates: how many changed paths were looked at (at most 300) out of how many. */
  readonly evaluated?: number;
  readonly total?: number;
}

export interface TriggerExplain {
  readonly event: TriggerEvent;
  readonly activated: boolean;
  /** Why the trigger was not evaluated (merge conflict, file already activated). */
  readonly skipped?: string;
  /** Predicates in evaluation order, up to the first that failed. */
  readonly predicates: PredicateExplain[];
}

export interface WorkflowExplain {
  path: string;
  activated: boolean;
  invalid?: string;
  skipped?: string;
  triggers: TriggerExplain[];
  /** One line for people: the outcome and the predicate and pattern that decided it. */
  summary: string;
}

export interface RouteResult {
  readonly evaluator: string;
  /** Activated workflow paths, sorted. */
  readonly activated: string[];
  readonly invalid: InvalidWorkflow[];
  /** More than 300 changed paths were given and a path filter only saw the first 300. */
  readonly limitApplied: boolean;
  readonly explain: WorkflowExplain[];
}

/** The activity types GitHub sends with `pull_request` / `pull_request_target` events. */
const PULL_REQUEST_ACTIONS: ReadonlySet<string> = new Set([
  'assigned', 'unassigned', 'labeled', 'unlabeled', 'opened', 'edited', 'closed', 'reopened', 'synchronize',
  'converted_to_draft', 'ready_for_review', 'locked', 'unlocked', 'review_requested', 'review_request_removed',
  'auto_merge_enabled', 'auto_merge_disabled', 'milestoned', 'demilestoned', 'enqueued', 'dequeued',
]);

function checkContext(ctx: RouteContext): void {
  if (ctx.event !== 'pull_request') throw new ValidationError(`route context: event must be 'pull_request', got '${String(ctx.event)}'`);
  if (typeof ctx.action !== 'string' || ctx.action === '') throw new ValidationError('route context: action must be a non-empty string');
  if (!PULL_REQUEST_ACTIONS.has(ctx.action)) {
    throw new ValidationError(`route context: action '${ctx.action}' is not a pull_request activity type (${[...PULL_REQUEST_ACTIONS].join(', ')})`);
  }
  if (typeof ctx.base_branch !== 'string' || ctx.base_branch === '') throw new ValidationError('route context: base_branch must be a non-empty string');
}

const list = (xs: readonly string[]): string => xs.join(', ');
const quote = (s: string): string => `'${s}'`;

interface TriggerOutcome {
  readonly activated: boolean;
  /** Reaching an uncompilable pattern makes the whole file invalid. */
  readonly invalid?: string;
  readonly explain: TriggerExplain;
  readonly usedPaths: boolean;
}

/** Explained evaluation of one trigger (the loop body of section 18). */
function explainTrigger(trigger: CompiledTrigger, files: readonly string[], total: number, ctx: RouteContext, branch: string): TriggerOutcome {
  const predicates: PredicateExplain[] = [];
  const done = (activated: boolean, extra: { invalid?: string; usedPaths?: boolean } = {}): TriggerOutcome => ({
    activated,
    ...(extra.invalid ? { invalid: extra.invalid } : {}),
    usedPaths: extra.usedPaths ?? false,
    explain: { event: trigger.event, activated, predicates },
  });

  // Section 7: types replace the default set; exact string equality, no globbing.
  // Section 19 points 5 and 6 decided: `types: []` matches no action, and an unknown type or
  // `'*'` is not an error: it simply never equals the action.
  const types = trigger.types ?? DEFAULT_TYPES;
  const typeOk = types.includes(ctx.action);
  predicates.push({
    predicate: 'types',
    passed: typeOk,
    detail: trigger.types === null
      ? `no types: the default types (${list(DEFAULT_TYPES)}) ${typeOk ? 'include' : 'do not include'} ${quote(ctx.action)}`
      : `types [${list(types)}] ${typeOk ? 'include' : 'do not include'} ${quote(ctx.action)}`,
  });
  if (!typeOk) return done(false);

  // Section 19 point 9 decided: an invalid glob pattern makes the file invalid (not activated,
  // reported), checked where section 18 places it: once the trigger's type matched.
  if (trigger.patternError) return done(false, { invalid: trigger.patternError });

  const branches = trigger.filters.branches;
  // Section 19 point 5 decided: `branches: []` is "no branch filter" (act and runner.server).
  if (branches !== undefined && branches.length > 0) {
    const m = matchList(branches, branch);
    const hit = m.index >= 0 ? branches[m.index]! : undefined;
    predicates.push({
      predicate: 'branches',
      passed: m.included,
      detail: hit
        ? `base branch ${quote(branch)} ${m.included ? 'included' : 'excluded'} by ${quote(hit.source)}`
        : `base branch ${quote(branch)} matches no pattern of [${list(branches.map((p) => p.source))}]`,
      ...(hit ? { pattern: hit.source, subject: branch } : {}),
    });
    if (!m.included) return done(false);
  } else if (branches !== undefined) {
    predicates.push({ predicate: 'branches', passed: true, detail: 'branches: [] is no branch filter' });
  }

  const branchesIgnore = trigger.filters['branches-ignore'];
  if (branchesIgnore !== undefined) {
    // Section 19 point 1 decided: ignore lists use the same ordered model as `branches`
    // (a later `!x` un-ignores x); section 11 explains why the first-hit model is rejected.
    const m = matchList(branchesIgnore, branch);
    const hit = m.index >= 0 ? branchesIgnore[m.index]! : undefined;
    predicates.push({
      predicate: 'branches-ignore',
      passed: !m.included,
      detail: hit
        ? `base branch ${quote(branch)} ${m.included ? 'ignored' : 'un-ignored'} by ${quote(hit.source)}`
        : `base branch ${quote(branch)} matches no pattern of [${list(branchesIgnore.map((p) => p.source))}]`,
      ...(hit ? { pattern: hit.source, subject: branch } : {}),
    });
    if (m.included) return done(false);
  }

  const paths = trigger.filters.paths;
  if (paths !== undefined) {
    let passed = false;
    let pattern: string | undefined;
    let subject: string | undefined;
    for (const f of files) {
      const m = matchList(paths, f);
      if (m.included) {
        passed = true;
        pattern = paths[m.index]!.source;
        subject = f;
        break;
      }
      if (m.index >= 0 && subject === undefined) {
        pattern = paths[m.index]!.source;
        subject = f;
      }
    }
    const seen = `${files.length} of ${total} paths evaluated`;
    predicates.push({
      predicate: 'paths',
      passed,
      detail: passed
        ? `${quote(subject!)} included by ${quote(pattern!)}`
        : files.length === 0
          ? 'no changed files: a path-filtered workflow does not run'
          : subject !== undefined
            ? `no changed path is included (${quote(subject)} excluded by ${quote(pattern!)}; ${seen})`
            : `no changed path matches [${list(paths.map((p) => p.source))}] (${seen})`,
      ...(pattern !== undefined ? { pattern, subject } : {}),
      evaluated: files.length,
      total,
    });
    if (!passed) return done(false, { usedPaths: true });
  }

  const pathsIgnore = trigger.filters['paths-ignore'];
  if (pathsIgnore !== undefined) {
    let passed = false;
    let pattern: string | undefined;
    let subject: string | undefined;
    for (const f of files) {
      const m = matchList(pathsIgnore, f);
      if (!m.included) {
        passed = true;
        subject = f;
        pattern = m.index >= 0 ? pathsIgnore[m.index]!.source : undefined;
        break;
      }
      if (subject === undefined) {
        subject = f;
        pattern = pathsIgnore[m.index]!.source;
      }
    }
    const seen = `${files.length} of ${total} paths evaluated`;
    predicates.push({
      predicate: 'paths-ignore',
      passed,
      detail: passed
        ? pattern !== undefined
          ? `${quote(subject!)} un-ignored by ${quote(pattern)}`
          : `${quote(subject!)} matches no ignore pattern`
        : files.length === 0
          ? 'no changed files: a path-filtered workflow does not run'
          : `every changed path is ignored (${quote(subject!)} by ${quote(pattern!)}; ${seen})`,
      ...(subject !== undefined ? { subject } : {}),
      ...(pattern !== undefined ? { pattern } : {}),
      evaluated: files.length,
      total,
    });
    if (!passed) return done(false, { usedPaths: true });
  }
  return done(true, { usedPaths: paths !== undefined || pathsIgnore !== undefined });
}

function summarize(explain: Omit<WorkflowExplain, 'summary'>, events: readonly string[]): string {
  if (explain.skipped) return `skipped: ${explain.skipped}`;
  if (explain.invalid) return `invalid: ${explain.invalid}`;
  if (explain.triggers.length === 0) {
    return `not activated: no pull_request or pull_request_target trigger${events.length > 0 ? ` (on: ${list(events)})` : ' (no on)'}`;
  }
  const describe = (t: TriggerExplain): string => {
    if (t.skipped) return `${t.event} ${t.skipped}`;
    const last = t.predicates[t.predicates.length - 1];
    if (t.activated) {
      const decisive = [...t.predicates].reverse().find((p) => p.pattern !== undefined && p.predicate !== 'types');
      return `${t.event}: ${decisive ? `${decisive.predicate}: ${decisive.detail}` : last ? `${last.predicate}: ${last.detail}` : 'no filters'}`;
    }
    return `${t.event}: ${last ? `${last.predicate} failed: ${last.detail}` : 'not evaluated'}`;
  };
  const winner = explain.triggers.find((t) => t.activated);
  if (winner) return `activated by ${describe(winner)}`;
  return `not activated: ${explain.triggers.map(describe).join('; ')}`;
}

/** Byte-wise (UTF-8, i.e. code point) path order: `sorted()` of section 18, and git's order. */
function byPath<T extends { readonly path: string }>(a: T, b: T): number {
  return Buffer.compare(Buffer.from(a.path, 'utf8'), Buffer.from(b.path, 'utf8'));
}

/** Workflows parsed and their patterns compiled once; route as many change sets as needed. */
export class CompiledWorkflows {
  private readonly files: readonly CompiledFile[];
  /** Valid workflows that have at least one pull_request / pull_request_target trigger. */
  private readonly candidates: readonly CompiledWorkflow[];
  /** The plan of the last context routed by `activatedFor`, and that context. */
  private plan: ContextPlan | undefined;
  private planContext: RouteContext | undefined;

  constructor(files: readonly WorkflowFile[]) {
    const seen = new Set<string>();
    for (const f of files) {
      if (seen.has(f.path)) throw new ValidationError(`workflow files: path '${f.path}' is given twice`);
      seen.add(f.path);
    }
    this.files = files.map(compileFile).sort(byPath);
    this.candidates = this.files.filter(
      (f): f is CompiledWorkflow => f.kind === 'workflow' && f.triggers.length > 0,
    );
  }

  /** Full evaluation with explanations. `changedPaths` order matters for the 300-file limit. */
  route(changedPaths: readonly string[], ctx: RouteContext): RouteResult {
    checkContext(ctx);
    // Section 19 point 3 decided: "the first 300" are the first 300 in the order given (git's
    // byte-wise path order when taken from a diff), and past them a non-ignored path does not
    // count for paths-ignore either.
    const files = changedPaths.length > DIFF_LIMIT ? changedPaths.slice(0, DIFF_LIMIT) : changedPaths;
    const branch = shortBranch(ctx.base_branch);
    const activated: string[] = [];
    const invalid: InvalidWorkflow[] = [];
    const explain: WorkflowExplain[] = [];
    let usedPaths = false;
    for (const file of this.files) {
      if (file.kind === 'skipped') {
        const e = { path: file.path, activated: false, skipped: 'not a workflow file (only .yml/.yaml files directly in .github/workflows/ are)', triggers: [] };
        explain.push({ ...e, summary: summarize(e, []) });
        continue;
      }
      if (file.kind === 'invalid') {
        invalid.push({ path: file.path, reason: file.reason });
        const e = { path: file.path, activated: false, invalid: file.reason, triggers: [] };
        explain.push({ ...e, summary: summarize(e, []) });
        continue;
      }
      const triggers: TriggerExplain[] = [];
      let on = false;
      let bad: string | undefined;
      for (const trigger of file.triggers) {
        if (on || bad) {
          triggers.push({ event: trigger.event, activated: false, skipped: 'not evaluated: the file is already decided', predicates: [] });
          continue;
        }
        // Section 16: a merge conflict stops pull_request, never pull_request_target.
        if (trigger.event === 'pull_request' && ctx.merge_conflict === true) {
          triggers.push({ event: trigger.event, activated: false, skipped: 'skipped: the pull request has a merge conflict', predicates: [] });
          continue;
        }
        const outcome = explainTrigger(trigger, files, changedPaths.length, ctx, branch);
        triggers.push(outcome.explain);
        usedPaths ||= outcome.usedPaths;
        if (outcome.invalid) bad = outcome.invalid;
        else if (outcome.activated) on = true;
      }
      if (bad) invalid.push({ path: file.path, reason: bad });
      if (on) activated.push(file.path);
      const e = { path: file.path, activated: on, ...(bad ? { invalid: bad } : {}), triggers };
      explain.push({ ...e, summary: summarize(e, file.events) });
    }
    return { evaluator: EVALUATOR_ID, activated, invalid, limitApplied: usedPaths && changedPaths.length > DIFF_LIMIT, explain };
  }

  /**
   * Activated paths only (sorted): the fast path for routing many change sets. The context
   * predicates are decided once per distinct context and reused for the next call.
   */
  activatedFor(changedPaths: readonly string[], ctx: RouteContext): string[] {
    const last = this.planContext;
    if (
      this.plan === undefined ||
      last === undefined ||
      last.event !== ctx.event ||
      last.action !== ctx.action ||
      last.base_branch !== ctx.base_branch ||
      (last.merge_conflict === true) !== (ctx.merge_conflict === true)
    ) {
      checkContext(ctx);
      this.plan = new ContextPlan(this.candidates, ctx, shortBranch(ctx.base_branch));
      this.planContext = { ...ctx };
    }
    return [...this.plan.activated(changedPaths)];
  }

  /**
   * A router for one context with nothing learnt yet: what `activatedFor` keeps between calls
   * (the path automata's states, classes and answers) starts empty and belongs to the returned router.
   */
  routerFor(ctx: RouteContext): Router {
    checkContext(ctx);
    return new ContextPlan(this.candidates, ctx, shortBranch(ctx.base_branch));
  }

  /** Paths of files that are invalid whatever the event (parse and load errors). */
  invalidOnLoad(): InvalidWorkflow[] {
    return this.files.flatMap((f) => (f.kind === 'invalid' ? [{ path: f.path, reason: f.reason }] : []));
  }
}

export function compileWorkflows(files: readonly WorkflowFile[]): CompiledWorkflows {
  return new CompiledWorkflows(files);
}

/** Routes one change set: which workflow files a pull-request event activates (section 18). */
export function route(files: readonly WorkflowFile[], changedPaths: readonly string[], ctx: RouteContext): RouteResult {
  return compileWorkflows(files).route(changedPaths, ctx);
}
