/**
 * The fast path of the evaluator: the same decisions as section 18 without explanations, for
 * routing many change sets under one context (the "repository prior": every tracked path as
 * its own one-path change).
 *
 * For one context, the context predicates (merge conflict, types, branches) are decided once;
 * what is left depends on the changed paths only. For one-path changes, the patterns that can
 * match a file at all are worked out once per directory and name ending (from each pattern's
 * literal prefix and suffix); the ordered walk over what is left gives the same last match.
 */
import { DEFAULT_TYPES, DIFF_LIMIT, type CompiledTrigger, type CompiledWorkflow } from './compile.js';
import { isIncluded, type CompiledPattern } from './pattern.js';

/** A trigger that passed the context predicates, with the ids of its path lists (-1: absent). */
interface Step {
  readonly paths: readonly CompiledPattern[] | undefined;
  readonly pathsId: number;
  readonly ignore: readonly CompiledPattern[] | undefined;
  readonly ignoreId: number;
}

interface Entry {
  readonly path: string;
  readonly steps: readonly Step[];
}

/**
 * For one directory: each path list cut down to the patterns that can match a file directly in
 * it (`undefined` when none can), and the workflows worth looking at.
 */
interface DirPlan {
  readonly lists: readonly (readonly CompiledPattern[] | undefined)[];
  /** Entries (workflows) to evaluate, in order. */
  readonly entries: Int32Array;
  /** The same, narrowed to the files of one name ending (see `endingOf`), built on first use. */
  readonly byEnding: Map<string, DirPlan>;
}

/** Directory plans kept per context plan; cleared past this many directories to bound memory. */
const MAX_CACHED_DIRS = 50_000;

/**
 * Can `p` match some file directly in `dir` (a directory ending in `/`, or '' for the root)?
 * A match must start with the pattern's literal prefix, and such a file is `dir` followed by a
 * name without `/`. Only a necessary condition: the regex stays the judge.
 */
export function mayMatchIn(p: CompiledPattern, dir: string): boolean {
  if (p.prefix.length <= dir.length) return dir.startsWith(p.prefix);
  return p.prefix.startsWith(dir) && p.prefix.indexOf('/', dir.length) === -1;
}

/**
 * Can `p` match a path that ends with `ending`? A match ends with the pattern's literal suffix,
 * so one of the two must end with the other.
 */
export function mayEndWith(p: CompiledPattern, ending: string): boolean {
  return p.suffix.length <= ending.length ? ending.endsWith(p.suffix) : p.suffix.endsWith(ending);
}

/** The end of a path's name from its last `.` (`.ts`), or the whole name when it has none. */
function endingOf(path: string, nameStart: number): string {
  const dot = path.lastIndexOf('.');
  return path.slice(dot >= nameStart ? dot : nameStart);
}

/**
 * Per-directory plans. Dropping the patterns that cannot match keeps the ordered walk exact:
 * the last matching pattern is among those that can match. A workflow whose every eligible
 * trigger has a `paths` list with nothing left is not activated by a file in that directory.
 */
class DirPlans {
  private readonly dirs = new Map<string, DirPlan>();
  /** The directory and plan of the previous path: sorted input hits it without hashing. */
  private lastDir = '';
  private lastPlan: DirPlan | undefined;

  /** `owners[id]`: the entry (workflow) list `id` belongs to; `always`: entries any path may activate. */
  constructor(
    private readonly lists: readonly (readonly CompiledPattern[])[],
    private readonly owners: readonly number[],
    private readonly always: readonly number[],
  ) {}

  planFor(path: string): DirPlan {
    const nameStart = path.lastIndexOf('/') + 1;
    let plan = this.lastPlan;
    if (plan === undefined || nameStart !== this.lastDir.length || !path.startsWith(this.lastDir)) {
      const dir = path.slice(0, nameStart);
      plan = this.dirs.get(dir);
      if (plan === undefined) {
        if (this.dirs.size >= MAX_CACHED_DIRS) this.dirs.clear();
        plan = this.build(dir);
        this.dirs.set(dir, plan);
      }
      this.lastDir = dir;
      this.lastPlan = plan;
    }
    const ending = endingOf(path, nameStart);
    let narrowed = plan.byEnding.get(ending);
    if (narrowed === undefined) {
      if (plan.byEnding.size >= MAX_CACHED_DIRS) plan.byEnding.clear();
      narrowed = this.narrow(plan, ending);
      plan.byEnding.set(ending, narrowed);
    }
    return narrowed;
  }

  private narrow(plan: DirPlan, ending: string): DirPlan {
    const entries = new Set<number>(this.always);
    const lists = plan.lists.map((patterns, id) => {
      const kept = patterns?.filter((p) => mayEndWith(p, ending));
      if (kept === undefined || kept.length === 0) return undefined;
      entries.add(this.owners[id]!);
      return kept;
    });
    return { lists, entries: Int32Array.from([...entries].sort((x, y) => x - y)), byEnding: new Map() };
  }

  private build(dir: string): DirPlan {
    const entries = new Set<number>(this.always);
    const lists = this.lists.map((patterns, id) => {
      const kept = patterns.filter((p) => mayMatchIn(p, dir));
      if (kept.length === 0) return undefined;
      entries.add(this.owners[id]!);
      return kept;
    });
    return { lists, entries: Int32Array.from([...entries].sort((x, y) => x - y)), byEnding: new Map() };
  }
}

function anyIncluded(patterns: readonly CompiledPattern[], files: readonly string[]): boolean {
  for (let i = 0; i < files.length; i++) if (isIncluded(patterns, files[i]!)) return true;
  return false;
}

function allIncluded(patterns: readonly CompiledPattern[], files: readonly string[]): boolean {
  for (let i = 0; i < files.length; i++) if (!isIncluded(patterns, files[i]!)) return false;
  return true;
}

export class ContextPlan {
  private readonly entries: readonly Entry[];
  private readonly dirPlans: DirPlans;

  /** `branch` is the short base branch name. */
  constructor(workflows: readonly CompiledWorkflow[], ctx: { readonly action: string; readonly merge_conflict?: boolean }, branch: string) {
    const lists: (readonly CompiledPattern[])[] = [];
    const owners: number[] = [];
    const entries: Entry[] = [];
    const listId = (patterns: readonly CompiledPattern[] | undefined): number => {
      if (patterns === undefined) return -1;
      owners.push(entries.length);
      return lists.push(patterns) - 1;
    };
    for (const file of workflows) {
      const steps: Step[] = [];
      for (const t of file.triggers) {
        if (t.event === 'pull_request' && ctx.merge_conflict === true) continue;
        if (!(t.types ?? DEFAULT_TYPES).includes(ctx.action)) continue;
        // Reaching an invalid pattern makes the file invalid: no later trigger counts.
        if (t.patternError) break;
        if (!passesBranches(t, branch)) continue;
        const paths = t.filters.paths;
        const ignore = t.filters['paths-ignore'];
        steps.push({ paths, pathsId: listId(paths), ignore, ignoreId: listId(ignore) });
      }
      if (steps.length > 0) entries.push({ path: file.path, steps });
    }
    this.entries = entries;
    // A workflow with an eligible trigger without `paths` may be activated by any path.
    const always = entries.flatMap((entry, i) => (entry.steps.some((st) => st.paths === undefined) ? [i] : []));
    this.dirPlans = new DirPlans(lists, owners, always);
  }

  /** Activated workflow paths (in workflow path order) for one change set. */
  activated(changedPaths: readonly string[]): string[] {
    const out: string[] = [];
    if (changedPaths.length === 1) {
      const path = changedPaths[0]!;
      const plan = this.dirPlans.planFor(path);
      const lists = plan.lists;
      const candidates = plan.entries;
      for (let c = 0; c < candidates.length; c++) {
        const entry = this.entries[candidates[c]!]!;
        const steps = entry.steps;
        for (let s = 0; s < steps.length; s++) {
          const step = steps[s]!;
          if (step.paths !== undefined) {
            const kept = lists[step.pathsId];
            if (kept === undefined || !isIncluded(kept, path)) continue;
          }
          if (step.ignore !== undefined) {
            const kept = lists[step.ignoreId];
            if (kept !== undefined && isIncluded(kept, path)) continue;
          }
          out.push(entry.path);
          break;
        }
      }
      return out;
    }
    const files = changedPaths.length > DIFF_LIMIT ? changedPaths.slice(0, DIFF_LIMIT) : changedPaths;
    for (const entry of this.entries) {
      for (const step of entry.steps) {
        if (step.paths !== undefined && !anyIncluded(step.paths, files)) continue;
        if (step.ignore !== undefined && allIncluded(step.ignore, files)) continue;
        out.push(entry.path);
        break;
      }
    }
    return out;
  }
}

/** Section 18 branch predicates; `branches: []` is no filter (section 19 point 5). */
export function passesBranches(t: CompiledTrigger, branch: string): boolean {
  const f = t.filters;
  if (f.branches !== undefined && f.branches.length > 0 && !isIncluded(f.branches, branch)) return false;
  if (f['branches-ignore'] !== undefined && isIncluded(f['branches-ignore'], branch)) return false;
  return true;
}
