/**
 * The fast path of the evaluator: the same decisions as section 18 without explanations, for
 * routing many change sets under one context (the "repository prior": every tracked path as
 * its own one-path change).
 *
 * For one context, the context predicates (merge conflict, types, branches) are decided once;
 * what is left depends on the changed paths only. For one-path changes an index over the
 * patterns' literal directory prefixes tells which path lists can match at all; a list none of
 * whose patterns can match includes nothing, which is exactly what scanning it would find.
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

/** For one directory: the path lists that may match a file in it, and the workflows to look at. */
interface DirPlan {
  /** `lists[id]` is 1 when list `id` may match. */
  readonly lists: Uint8Array;
  /** Entries (workflows) to evaluate, in order. */
  readonly entries: Int32Array;
}

/** Directory plans kept per context plan; cleared past this many directories to bound memory. */
const MAX_CACHED_DIRS = 50_000;

/**
 * Which path lists may match a path, keyed by the patterns' literal directory prefixes (or the
 * exact path, for patterns without special characters), and so which workflows need looking
 * at: a workflow whose every eligible trigger has a `paths` list that cannot match is not
 * activated by that path. The answer depends only on the path's directory (plus exact-path
 * patterns), so it is computed once per directory.
 */
class ListIndex {
  private readonly byDir = new Map<string, number[]>();
  private readonly byExact = new Map<string, number[]>();
  private readonly wild: number[] = [];
  private readonly dirs = new Map<string, DirPlan>();

  /** `owners[id]`: the entry (workflow) list `id` belongs to; `always`: entries any path may activate. */
  constructor(
    lists: readonly (readonly CompiledPattern[])[],
    private readonly owners: readonly number[],
    private readonly always: readonly number[],
  ) {
    lists.forEach((patterns, id) => {
      for (const p of patterns) {
        if (p.exact) {
          push(this.byExact, p.prefix, id);
          continue;
        }
        const dir = p.prefix.slice(0, p.prefix.lastIndexOf('/') + 1);
        if (dir === '') {
          this.wild.push(id);
          break;
        }
        push(this.byDir, dir, id);
      }
    });
  }

  /** The plan for `path`: cached per directory unless an exact-path pattern names the path. */
  planFor(path: string): DirPlan {
    const dir = path.slice(0, path.lastIndexOf('/') + 1);
    const exact = this.byExact.get(path);
    if (exact) return this.build(dir, exact);
    let plan = this.dirs.get(dir);
    if (plan === undefined) {
      if (this.dirs.size >= MAX_CACHED_DIRS) this.dirs.clear();
      plan = this.build(dir, []);
      this.dirs.set(dir, plan);
    }
    return plan;
  }

  private build(dir: string, extra: readonly number[]): DirPlan {
    const lists = new Uint8Array(this.owners.length);
    const entries = new Set<number>(this.always);
    const mark = (ids: readonly number[]): void => {
      for (const id of ids) {
        lists[id] = 1;
        entries.add(this.owners[id]!);
      }
    };
    mark(this.wild);
    mark(extra);
    for (let slash = dir.indexOf('/'); slash >= 0; slash = dir.indexOf('/', slash + 1)) {
      const ids = this.byDir.get(dir.slice(0, slash + 1));
      if (ids) mark(ids);
    }
    return { lists, entries: Int32Array.from([...entries].sort((x, y) => x - y)) };
  }
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const ids = map.get(key);
  if (ids === undefined) map.set(key, [id]);
  else if (ids[ids.length - 1] !== id) ids.push(id);
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
  private readonly index: ListIndex;

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
    this.index = new ListIndex(lists, owners, always);
  }

  /** Activated workflow paths (in workflow path order) for one change set. */
  activated(changedPaths: readonly string[]): string[] {
    const out: string[] = [];
    if (changedPaths.length === 1) {
      const path = changedPaths[0]!;
      const plan = this.index.planFor(path);
      const marked = plan.lists;
      const candidates = plan.entries;
      for (let c = 0; c < candidates.length; c++) {
        const entry = this.entries[candidates[c]!]!;
        for (const step of entry.steps) {
          if (step.paths !== undefined && !(marked[step.pathsId] === 1 && isIncluded(step.paths, path))) continue;
          if (step.ignore !== undefined && marked[step.ignoreId] === 1 && isIncluded(step.ignore, path)) continue;
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
