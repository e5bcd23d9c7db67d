/**
 * The fast path of the evaluator: the same decisions as section 18 without explanations, for
 * routing many change sets under one context (the repository prior, paired-state searches,
 * benchmarks over a repository's history).
 *
 * For one context, the context predicates (merge conflict, types, branches) are decided once;
 * what is left depends on the changed paths only. The path lists of all workflows form one set
 * (identical lists shared), so a path is examined once for all workflows:
 *
 * - Paths are grouped by directory and name ending (`src/` + `.ts`, `src/` + `.d.ts`; the
 *   ending is the name from its first `.`, or the whole name when that is its first character
 *   or it has none). For a group, each list is
 *   cut down from each pattern's literal prefix and suffix: patterns that cannot match any path
 *   of the group are dropped, and the last pattern that matches every path of the group (`src/**`
 *   for `src/`, `**\/*.ts` for `.ts`) ends the ordered walk, so only the patterns after it are
 *   tested. Last-match-wins is kept: the last matching pattern is always among those left.
 * - A workflow whose every trigger is decided by the group alone needs no test at all; a group
 *   where every workflow is decided has its answer ready.
 * - Change sets of several paths read, per path, the results of all lists at once, kept per path
 *   string for later change sets (histories touch the same paths again and again), and stop per
 *   workflow as soon as the semantics allow: `paths` at the first included path, `paths-ignore` at
 *   the first path that is not ignored.
 */
import { DEFAULT_TYPES, DIFF_LIMIT, type CompiledTrigger, type CompiledWorkflow } from './compile.js';
import { compilePattern, hits, isIncluded, type CompiledPattern } from './pattern.js';

/** One path list cut down for the paths of one group (one directory, one name ending). */
interface ListProgram {
  /** Patterns that may match some paths of the group and not others, in list order. */
  readonly maybe: readonly CompiledPattern[];
  /** The result when none of `maybe` matches: the polarity of the last pattern before them that matches every path of the group, else false. */
  readonly fallback: boolean;
}

const NEVER: ListProgram = { maybe: [], fallback: false };

/** Ordered walk (section 11) over a cut-down list: from the end, the first hit decides. */
function runList(prog: ListProgram, path: string): boolean {
  const maybe = prog.maybe;
  for (let i = maybe.length - 1; i >= 0; i--) {
    const p = maybe[i]!;
    if (hits(p, path)) return !p.negative;
  }
  return prog.fallback;
}

/** A trigger that passed the context predicates: ids of its `paths` / `paths-ignore` lists (-1: absent). */
interface Step {
  readonly pathsId: number;
  readonly ignoreId: number;
}

interface Entry {
  readonly path: string;
  readonly steps: readonly Step[];
}

/** Everything about one group of paths (one directory, one name ending). */
interface GroupPlan {
  /** Per list id. */
  readonly progs: readonly ListProgram[];
  /** Entries (workflows) a path of the group may activate, in order. */
  readonly entries: Int32Array;
  /** Per position of `entries`: 1 when the entry must be evaluated for the path, 0 when the group alone activates it. */
  readonly dynamic: Uint8Array;
  /** When no entry needs evaluating: the activated workflow paths. */
  readonly fixed: readonly string[] | undefined;
  /** When no list needs the name: the result of every list (1 included) for any path of the group. */
  readonly results: Uint8Array | undefined;
}

/**
 * One list for one directory: the patterns after the last one that matches every file of the
 * directory (those before it cannot be the last match), and that one's polarity (`base`).
 * `null` when no pattern of the list can match a file of the directory.
 */
interface DirList {
  readonly infos: readonly PatternInfo[];
  readonly base: boolean;
}

/**
 * One directory: its lists, and the group plans of its name endings. Directories whose lists are
 * the same (same patterns left, same bases, both with or without a leading `/`) share their group
 * plans: a plan depends on nothing else.
 */
interface DirPlan {
  readonly dir: string;
  readonly lists: readonly (DirList | null)[];
  readonly byEnding: Map<string, GroupPlan>;
  /** The first FEW_ENDINGS endings and their plans, looked up without hashing. */
  readonly endings: string[];
  readonly wholes: boolean[];
  readonly groups: GroupPlan[];
}

const FEW_ENDINGS = 16;

/** Plans kept per context; cleared past this many directories (or endings in one directory) to bound memory. */
const MAX_CACHED_DIRS = 50_000;
/** Per-path list results kept per context; cleared past this many paths. */
const MAX_CACHED_PATHS = 200_000;

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
 * Can `p` match a path whose name ends with `ending`? `whole`: the ending is the whole name (a
 * name without `.`, or whose first `.` is its first character); otherwise the name is a stem
 * without `.` followed by the ending (from the name's first `.`). A match ends with the pattern's literal
 * suffix S, so one of S and the ending ends with the other; when S is longer, what it has before
 * the ending lies in the stem (no `.`) or, past a `/`, in the directory.
 */
export function mayEndWith(p: CompiledPattern, ending: string, whole = false): boolean {
  const suffix = p.suffix;
  if (suffix.length <= ending.length) return ending.endsWith(suffix);
  if (!suffix.endsWith(ending)) return false;
  const before = suffix.slice(0, suffix.length - ending.length);
  if (whole) return before.endsWith('/');
  return !before.slice(before.lastIndexOf('/') + 1).includes('.');
}

/**
 * A pattern read as a directory part and a name part, when it has that form: the body splits at
 * its last `/` into a part that ends with `/` and a name part without `/`, `?` or `+` at its start
 * (which would quantify the `/`), and no `\` anywhere. The directory part's regex can only match ''
 * or a string ending in `/`, and the name part cannot match `/`, so for a file `dir` + `name`
 * the pattern matches exactly when the directory part matches `dir` and the name part `name`.
 * A name part `**` (`X/**`) matches any file below a directory matching `X/`: still decided by the
 * directory alone (the pattern's regex on `dir`).
 */
interface Split {
  /** Decides for the directory: `dirPart` regex, or for `X/**` the pattern's own regex. */
  readonly dir: RegExp;
  /** The name part matches every name (`*`, `**`), names ending with `suffix` (`*S`), the name `suffix` (no special character), or is judged per name. */
  readonly name: 'any' | 'suffix' | 'literal' | 'other';
  readonly suffix: string;
}

/** A pattern with its split form (worked out once per context plan). */
interface PatternInfo {
  /** Position among all patterns of the context plan. */
  readonly idx: number;
  readonly p: CompiledPattern;
  readonly split: Split | null;
}

function splitOf(p: CompiledPattern): Split | null {
  let split: Split | null = null;
  const body = p.negative ? p.source.slice(1) : p.source;
  const slash = body.lastIndexOf('/');
  // Without `/` and `**`, a pattern matches only names at the root: its directory part is ''.
  if (!body.includes('\\') && (slash >= 0 || !body.includes('**'))) {
    const dirPart = body.slice(0, slash + 1);
    const namePart = body.slice(slash + 1);
    if (namePart === '**' && !dirPart.endsWith('**/')) {
      split = { dir: p.regex, name: 'any', suffix: '' };
    } else if (!namePart.includes('**') && !namePart.startsWith('?') && !namePart.startsWith('+')) {
      try {
        const dir = compilePattern(dirPart).regex;
        const rest = namePart.slice(1);
        if (namePart === '*') split = { dir, name: 'any', suffix: '' };
        else if (!/[*?+[\]\\]/.test(namePart)) split = { dir, name: 'literal', suffix: namePart };
        else if (namePart.startsWith('*') && !/[*?+[\]\\]/.test(rest)) split = { dir, name: 'suffix', suffix: rest };
        else split = { dir, name: 'other', suffix: '' };
      } catch {
        split = null;
      }
    }
  }
  return split;
}

/** 0: matches no file directly in `dir`; 1: matches every such file; 2: depends on the name. */
function inDir({ p, split }: PatternInfo, dir: string): 0 | 1 | 2 {
  if (!mayMatchIn(p, dir)) return 0;
  // `L**` matches every file in a directory that starts with L.
  if (p.shape === 'starts' && p.prefix.length <= dir.length) return 1;
  if (split === null) return 2;
  if (!split.dir.test(dir)) return 0;
  return split.name === 'any' ? 1 : 2;
}

/** For a pattern that may match in `dir`: 0: matches no name ending with `ending`; 1: every one; 2: depends on the name. */
function withEnding({ p, split }: PatternInfo, dir: string, ending: string, whole: boolean): 0 | 1 | 2 {
  if (!mayEndWith(p, ending, whole)) return 0;
  if (matchesWholeEnding(p, dir, ending)) return 1;
  if (split === null) return 2;
  // The directory part already matched (`inDir`); a name part `*S` matches every name ending with S.
  if (split.name === 'suffix' && split.suffix.length <= ending.length && ending.endsWith(split.suffix)) return 1;
  if (split.name === 'literal') {
    // A literal name part is the name itself: decided by a whole-name ending, and otherwise it
    // must split into a stem and the same ending.
    if (whole) return split.suffix === ending ? 1 : 0;
    const dot = split.suffix.indexOf('.');
    return dot > 0 && split.suffix.slice(dot) === ending ? 2 : 0;
  }
  return 2;
}

/**
 * Does `p` match every file of `dir` whose name ends with `ending`? `**S` and `**\/*S` (S without
 * `/`) match every path ending with S, except that `**\/*S` needs no leading `/`.
 */
function matchesWholeEnding(p: CompiledPattern, dir: string, ending: string): boolean {
  return p.shape === 'ends' && p.suffix.length <= ending.length && ending.endsWith(p.suffix) && dir.charCodeAt(0) !== 47;
}


export class ContextPlan {
  private readonly entries: readonly Entry[];
  private readonly lists: readonly (readonly PatternInfo[])[];
  private readonly dirs = new Map<string, DirPlan>();
  /** Group plans by directory lists (see DirPlan). */
  private readonly sharedPlans = new Map<string, Pick<DirPlan, 'byEnding' | 'endings' | 'wholes' | 'groups'>>();
  /** The directory plan of the previous path: sorted input hits it without hashing. */
  private lastDir: DirPlan | undefined;
  /** Per path string: the result of every list (1 included), for change sets of several paths. */
  private readonly results = new Map<string, Uint8Array>();
  /** Scratch for the list results of the paths of one change set. */
  private scratch: Uint8Array[] = [];

  /** `branch` is the short base branch name. */
  constructor(workflows: readonly CompiledWorkflow[], ctx: { readonly action: string; readonly merge_conflict?: boolean }, branch: string) {
    const lists: (readonly CompiledPattern[])[] = [];
    const ids = new Map<string, number>();
    // Identical lists (same patterns in the same order) share one id: one result per path.
    const listId = (patterns: readonly CompiledPattern[] | undefined): number => {
      if (patterns === undefined) return -1;
      const key = patterns.map((p) => p.source).join('\0');
      let id = ids.get(key);
      if (id === undefined) {
        id = lists.push(patterns) - 1;
        ids.set(key, id);
      }
      return id;
    };
    const entries: Entry[] = [];
    for (const file of workflows) {
      const steps: Step[] = [];
      for (const t of file.triggers) {
        if (t.event === 'pull_request' && ctx.merge_conflict === true) continue;
        if (!(t.types ?? DEFAULT_TYPES).includes(ctx.action)) continue;
        // Reaching an invalid pattern makes the file invalid: no later trigger counts.
        if (t.patternError) break;
        if (!passesBranches(t, branch)) continue;
        steps.push({ pathsId: listId(t.filters.paths), ignoreId: listId(t.filters['paths-ignore']) });
      }
      if (steps.length > 0) entries.push({ path: file.path, steps });
    }
    this.entries = entries;
    let idx = 0;
    this.lists = lists.map((patterns) => patterns.map((p) => ({ idx: idx++, p, split: splitOf(p) })));
  }

  /**
   * Activated workflow paths (in workflow path order) for one change set. The array may be shared
   * with other answers of this plan: read it, do not change it.
   */
  activated(changedPaths: readonly string[]): readonly string[] {
    if (changedPaths.length === 1) return this.activatedOne(changedPaths[0]!);
    const n = changedPaths.length > DIFF_LIMIT ? DIFF_LIMIT : changedPaths.length;
    const scratch = this.scratch;
    // Results of paths 0..got-1 are in `scratch`; the loops below read paths in order and stop early.
    let got = 0;
    const out: string[] = [];
    const entries = this.entries;
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e]!;
      const steps = entry.steps;
      for (let s = 0; s < steps.length; s++) {
        const { pathsId, ignoreId } = steps[s]!;
        if (pathsId >= 0) {
          // `paths`: some path (of the first 300) is included.
          let found = false;
          for (let i = 0; i < n; i++) {
            if (i === got) scratch[got++] = this.resultsOf(changedPaths[i]!);
            if (scratch[i]![pathsId] === 1) {
              found = true;
              break;
            }
          }
          if (!found) continue;
        }
        if (ignoreId >= 0) {
          // `paths-ignore`: some path (of the first 300) is not ignored.
          let found = false;
          for (let i = 0; i < n; i++) {
            if (i === got) scratch[got++] = this.resultsOf(changedPaths[i]!);
            if (scratch[i]![ignoreId] === 0) {
              found = true;
              break;
            }
          }
          if (!found) continue;
        }
        out.push(entry.path);
        break;
      }
    }
    return out;
  }

  /** One changed path: the group plan decides, testing only the patterns it cannot decide. */
  private activatedOne(path: string): readonly string[] {
    const plan = this.planFor(path);
    if (plan.fixed !== undefined) return plan.fixed;
    const out: string[] = [];
    const { progs, entries: candidates, dynamic } = plan;
    for (let c = 0; c < candidates.length; c++) {
      const entry = this.entries[candidates[c]!]!;
      if (dynamic[c] === 0) {
        out.push(entry.path);
        continue;
      }
      const steps = entry.steps;
      for (let s = 0; s < steps.length; s++) {
        const { pathsId, ignoreId } = steps[s]!;
        if (pathsId >= 0 && !runList(progs[pathsId]!, path)) continue;
        if (ignoreId >= 0 && runList(progs[ignoreId]!, path)) continue;
        out.push(entry.path);
        break;
      }
    }
    return out;
  }

  /**
   * The result of every list for one path, kept per path string: the group's own when the group
   * decides every list, else worked out for the path.
   */
  private resultsOf(path: string): Uint8Array {
    let r = this.results.get(path);
    if (r === undefined) {
      const plan = this.planFor(path);
      r = plan.results;
      if (r === undefined) {
        const progs = plan.progs;
        r = new Uint8Array(progs.length);
        for (let id = 0; id < progs.length; id++) {
          const prog = progs[id]!;
          if (prog !== NEVER && runList(prog, path)) r[id] = 1;
        }
      }
      if (this.results.size >= MAX_CACHED_PATHS) this.results.clear();
      this.results.set(path, r);
    }
    return r;
  }

  private planFor(path: string): GroupPlan {
    const nameStart = path.lastIndexOf('/') + 1;
    let dirPlan = this.lastDir;
    if (dirPlan === undefined || nameStart !== dirPlan.dir.length || !path.startsWith(dirPlan.dir)) {
      const dir = path.slice(0, nameStart);
      dirPlan = this.dirs.get(dir);
      if (dirPlan === undefined) {
        if (this.dirs.size >= MAX_CACHED_DIRS) this.dirs.clear();
        dirPlan = this.buildDir(dir);
        this.dirs.set(dir, dirPlan);
      }
      this.lastDir = dirPlan;
    }
    // The ending: from the name's first `.`, or the whole name when that is its first character or it has none.
    const dot = path.indexOf('.', nameStart);
    const whole = dot <= nameStart;
    const endStart = whole ? nameStart : dot;
    const len = path.length - endStart;
    // A directory has few name endings: compare in place before slicing and hashing.
    const { endings, wholes, groups } = dirPlan;
    for (let k = 0; k < endings.length; k++) {
      const e = endings[k]!;
      if (e.length === len && wholes[k] === whole && path.startsWith(e, endStart)) return groups[k]!;
    }
    const ending = path.slice(endStart);
    // '/' cannot be part of a name: it keeps the whole-name keys apart from the endings.
    const key = whole ? `/${ending}` : ending;
    let plan = dirPlan.byEnding.get(key);
    if (plan === undefined) {
      if (dirPlan.byEnding.size >= MAX_CACHED_DIRS) dirPlan.byEnding.clear();
      plan = this.buildGroup(dirPlan, ending, whole);
      dirPlan.byEnding.set(key, plan);
      if (endings.length < FEW_ENDINGS) {
        endings.push(ending);
        wholes.push(whole);
        groups.push(plan);
      }
    }
    return plan;
  }

  private buildDir(dir: string): DirPlan {
    const lists = this.lists.map((infos): DirList | null => {
      const kept: PatternInfo[] = [];
      for (let i = infos.length - 1; i >= 0; i--) {
        const info = infos[i]!;
        const d = inDir(info, dir);
        if (d === 1) return { infos: kept.reverse(), base: !info.p.negative };
        if (d === 2) kept.push(info);
      }
      return kept.length === 0 ? null : { infos: kept.reverse(), base: false };
    });
    const key = `${dir.charCodeAt(0) === 47 ? '/' : ''}|${lists.map((l) => (l === null ? '' : `${l.base ? '+' : '-'}${l.infos.map((i) => i.idx).join(',')}`)).join('|')}`;
    let shared = this.sharedPlans.get(key);
    if (shared === undefined) {
      if (this.sharedPlans.size >= MAX_CACHED_DIRS) this.sharedPlans.clear();
      shared = { byEnding: new Map(), endings: [], wholes: [], groups: [] };
      this.sharedPlans.set(key, shared);
    }
    return { dir, lists, ...shared };
  }

  private buildGroup(dirPlan: DirPlan, ending: string, whole: boolean): GroupPlan {
    const { dir } = dirPlan;
    const progs = dirPlan.lists.map((list): ListProgram => {
      if (list === null) return NEVER;
      const infos = list.infos;
      const maybe: CompiledPattern[] = [];
      let fallback = list.base;
      for (let i = infos.length - 1; i >= 0; i--) {
        const info = infos[i]!;
        const e = withEnding(info, dir, ending, whole);
        if (e === 0) continue;
        if (e === 1) {
          fallback = !info.p.negative;
          break;
        }
        maybe.push(info.p);
      }
      if (maybe.length === 0 && !fallback) return NEVER;
      return { maybe: maybe.reverse(), fallback };
    });
    const decided = (id: number): boolean => id < 0 || progs[id]!.maybe.length === 0;
    const value = (id: number): boolean => progs[id]!.fallback;
    const entries: number[] = [];
    const dynamic: number[] = [];
    this.entries.forEach((entry, e) => {
      // 'on': some trigger is activated by every path of the group; 'maybe': some trigger needs the path itself.
      let state: 'off' | 'maybe' | 'on' = 'off';
      for (const { pathsId, ignoreId } of entry.steps) {
        const pathsOff = pathsId >= 0 && decided(pathsId) && !value(pathsId);
        const ignoreOff = ignoreId >= 0 && decided(ignoreId) && value(ignoreId);
        if (pathsOff || ignoreOff) continue;
        if (decided(pathsId) && decided(ignoreId)) {
          state = 'on';
          break;
        }
        state = 'maybe';
      }
      if (state === 'off') return;
      entries.push(e);
      dynamic.push(state === 'maybe' ? 1 : 0);
    });
    const fixed = dynamic.every((d) => d === 0) ? entries.map((e) => this.entries[e]!.path) : undefined;
    const results = progs.every((prog) => prog.maybe.length === 0) ? Uint8Array.from(progs, (prog) => (prog.fallback ? 1 : 0)) : undefined;
    return { progs, entries: Int32Array.from(entries), dynamic: Uint8Array.from(dynamic), fixed, results };
  }
}

/** Section 18 branch predicates; `branches: []` is no filter (section 19 point 5). */
export function passesBranches(t: CompiledTrigger, branch: string): boolean {
  const f = t.filters;
  if (f.branches !== undefined && f.branches.length > 0 && !isIncluded(f.branches, branch)) return false;
  if (f['branches-ignore'] !== undefined && isIncluded(f['branches-ignore'], branch)) return false;
  return true;
}
