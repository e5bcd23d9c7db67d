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
 * - Change sets of several paths: what a change set activates depends only on which lists some
 *   of its (first 300) paths are included by (for `paths`) or not ignored by (for `paths-ignore`).
 *   Each path gets a signal, one bit per list and use, worked out once per path string (from its
 *   directory, its group, or the patterns its directory leaves) and kept for later change sets
 *   (histories touch the same paths again and again); a change set ORs the signals of its paths
 *   (stopping once every bit is set) and reads the answer kept for that signal, computed once from
 *   the triggers: no allocation per change set, and workflows without path filters cost nothing.
 *   A one-path change set uses the kept signal when its path has one and its group plan otherwise.
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

/** Where the name of `path` starts (after its last `/`): a loop from the end, which V8 runs faster than `lastIndexOf`. */
function nameStartOf(path: string): number {
  let i = path.length - 1;
  while (i >= 0 && path.charCodeAt(i) !== 47) i--;
  return i + 1;
}

function hasBit(signal: Int32Array, bit: number): boolean {
  return (signal[(bit / BITS) | 0]! & (1 << bit % BITS)) !== 0;
}

/** Ordered walk over the patterns a directory leaves in a list, its base when none of them matches. */
function runDirList(list: DirList, path: string): boolean {
  const infos = list.infos;
  for (let i = infos.length - 1; i >= 0; i--) {
    const p = infos[i]!.p;
    if (hits(p, path)) return !p.negative;
  }
  return list.base;
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
  /** With `results`: the signal class of every path of the group, once worked out (-1 before). */
  cls: number;
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
  /** Every list is decided for the whole directory (no pattern left that depends on the name). */
  readonly decided: boolean;
  /** When `decided`: the signal class of every file of the directory, once worked out (-1 before). */
  cls: number;
}

const FEW_ENDINGS = 16;

/** Plans kept per context; cleared past this many directories (or endings in one directory) to bound memory. */
const MAX_CACHED_DIRS = 50_000;
/** Per-path signal classes and answers kept per context; cleared past this many. */
const MAX_CACHED_PATHS = 200_000;
/** Signal bits per word: 30 keeps every word a small integer (no heap number) in V8. */
const BITS = 30;

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
  /**
   * Signal bits (see `activated`): per list, the bit set when a path is included (`inBit`, for
   * lists used as `paths`) and when it is not (`outBit`, for lists used as `paths-ignore`); -1 when
   * the list is not used that way. Bits are numbered across `words` words of BITS each.
   */
  private readonly inBit: Int32Array;
  private readonly outBit: Int32Array;
  private readonly words: number;
  /** Every bit that any path can set: a change set whose signal has them all needs no further path. */
  private readonly full: Int32Array;
  /** Signal classes: the distinct signals of paths seen so far, `words` numbers each, and their ids by key. */
  private readonly classWords: number[] = [];
  private readonly classIds = new Map<string, number>();
  /**
   * Per path string: its signal class. A prototype-less object rather than a Map: V8 interns a
   * string used as a property key, so a path string seen again is found without hashing it again.
   */
  private pathClass: Record<string, number> = Object.create(null) as Record<string, number>;
  private pathCount = 0;
  /** One-path change sets: lookups that found their path kept, lookups that did not, calls; and whether new paths are kept. */
  private oneHits = 0;
  private oneMisses = 0;
  private oneCalls = 0;
  private keepOne = true;
  /** Answers by signal: with one word a map from the word; with more, nested maps word by word. */
  private answers = new Map<number, unknown>();
  private answerCount = 0;
  /** Scratch for the signal of one change set, and for the signal of one path. */
  private readonly acc: Int32Array;
  private readonly sig: Int32Array;

  /**
   * `branch` is the short base branch name. `maxCached` bounds each of the per-path signals, the
   * signal classes and the answers kept (each is cleared when it reaches the bound).
   */
  constructor(
    workflows: readonly CompiledWorkflow[],
    ctx: { readonly action: string; readonly merge_conflict?: boolean },
    branch: string,
    private readonly maxCached = MAX_CACHED_PATHS,
  ) {
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
    this.inBit = new Int32Array(lists.length).fill(-1);
    this.outBit = new Int32Array(lists.length).fill(-1);
    let bits = 0;
    for (const { steps } of entries) {
      for (const { pathsId, ignoreId } of steps) {
        if (pathsId >= 0 && this.inBit[pathsId] === -1) this.inBit[pathsId] = bits++;
        if (ignoreId >= 0 && this.outBit[ignoreId] === -1) this.outBit[ignoreId] = bits++;
      }
    }
    this.words = Math.max(1, Math.ceil(bits / BITS));
    this.full = new Int32Array(this.words);
    for (let b = 0; b < bits; b++) this.full[(b / BITS) | 0]! |= 1 << b % BITS;
    this.acc = new Int32Array(this.words);
    this.sig = new Int32Array(this.words);
  }

  /**
   * Activated workflow paths (in workflow path order) for one change set. The array may be shared
   * with other answers of this plan: read it, do not change it.
   *
   * Several paths: the answer depends only on which signal bits some path (of the first 300) sets:
   * a `paths` list needs some included path (its `inBit`), a `paths-ignore` list some path that is
   * not ignored (its `outBit`). Each path's bits are worked out once per path string (a signal
   * class); a change set ORs them, stops early once every bit is set, and reads its answer from
   * the answers kept per signal.
   */
  activated(changedPaths: readonly string[]): readonly string[] {
    if (changedPaths.length === 1) {
      // One path: its class when known; otherwise the group plan decides. Working out and keeping a
      // class pays when paths come again (a repository's history), not when every path is new (a
      // tree routed path by path): past the first 64 misses, new paths are kept only while at least
      // one lookup in five finds its path already known.
      // While new paths are not kept, only one call in 16 looks its path up (a lookup that
      // misses costs about as much as the group plan's answer), to notice when paths come again.
      const path = changedPaths[0]!;
      if (!this.keepOne && (++this.oneCalls & 15) !== 0) return this.activatedOne(path);
      const known = this.pathClass[path] !== undefined;
      if (known) this.oneHits++;
      else this.oneMisses++;
      this.keepOne = this.oneMisses < 64 || this.oneHits * 4 >= this.oneMisses;
      if (!known && !this.keepOne) return this.activatedOne(path);
    }
    const n = changedPaths.length > DIFF_LIMIT ? DIFF_LIMIT : changedPaths.length;
    if (this.words === 1) {
      const full = this.full[0]!;
      let acc = 0;
      // One word: a path's class is its signal word.
      for (let i = 0; i < n && acc !== full; i++) acc |= this.classOf(changedPaths[i]!);
      const known = this.answers.get(acc) as readonly string[] | undefined;
      if (known !== undefined) return known;
      this.acc[0] = acc;
      return this.remember(this.answerFor(this.acc));
    }
    const words = this.words;
    const classWords = this.classWords;
    const acc = this.acc;
    const full = this.full;
    acc.fill(0);
    for (let i = 0; i < n; i++) {
      const base = this.classOf(changedPaths[i]!) * words;
      let complete = true;
      for (let w = 0; w < words; w++) {
        const v = (acc[w]! |= classWords[base + w]!);
        if (v !== full[w]) complete = false;
      }
      if (complete) break;
    }
    let level: Map<number, unknown> = this.answers;
    for (let w = 0; w < words - 1; w++) {
      let next = level.get(acc[w]!) as Map<number, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(acc[w]!, next);
      }
      level = next;
    }
    const known = level.get(acc[words - 1]!) as readonly string[] | undefined;
    if (known !== undefined) return known;
    const answer = this.answerFor(acc);
    if (this.answerCount >= this.maxCached) {
      this.answers = new Map();
      this.answerCount = 0;
      return answer;
    }
    level.set(acc[words - 1]!, answer);
    this.answerCount++;
    return answer;
  }

  /** Keeps the answer of a one-word signal (in `acc[0]`). */
  private remember(answer: readonly string[]): readonly string[] {
    if (this.answerCount >= this.maxCached) {
      this.answers = new Map();
      this.answerCount = 0;
    }
    this.answers.set(this.acc[0]!, answer);
    this.answerCount++;
    return answer;
  }

  /** The workflows a change set with this signal activates: a trigger passes when each of its path lists has its bit. */
  private answerFor(signal: Int32Array): readonly string[] {
    const out: string[] = [];
    for (const entry of this.entries) {
      for (const { pathsId, ignoreId } of entry.steps) {
        if (pathsId >= 0 && !hasBit(signal, this.inBit[pathsId]!)) continue;
        if (ignoreId >= 0 && !hasBit(signal, this.outBit[ignoreId]!)) continue;
        out.push(entry.path);
        break;
      }
    }
    return out;
  }

  /** The signal class of one path, kept per path string. */
  private classOf(path: string): number {
    let cls = this.pathClass[path];
    if (cls === undefined) {
      cls = this.classFor(path);
      if (this.pathCount >= this.maxCached) this.forgetPaths();
      this.pathClass[path] = cls;
      this.pathCount++;
    }
    return cls;
  }

  /**
   * Works out the signal class of a path: from its directory when that decides every list; for a
   * name with an ending (`.c`, `.d.ts`) from the group plan of the ending, shared with the other
   * names that have it (one class for the group when the group decides every list); for a whole
   * name (`Makefile`, `test1234`), whose group is seldom shared, by the patterns the directory
   * leaves, tested on the path.
   */
  private classFor(path: string): number {
    const nameStart = nameStartOf(path);
    const dirPlan = this.dirFor(path, nameStart);
    const lists = dirPlan.lists;
    this.sig.fill(0);
    if (dirPlan.decided) {
      if (dirPlan.cls < 0) {
        for (let id = 0; id < lists.length; id++) this.mark(id, lists[id]?.base === true);
        dirPlan.cls = this.intern();
      }
      return dirPlan.cls;
    }
    const dot = path.indexOf('.', nameStart);
    if (dot <= nameStart) {
      for (let id = 0; id < lists.length; id++) {
        const list = lists[id]!;
        this.mark(id, list !== null && runDirList(list, path));
      }
      return this.intern();
    }
    const plan = this.groupFor(dirPlan, path, nameStart);
    const results = plan.results;
    if (results !== undefined) {
      // Every path of the group has the same list results: one class for the group.
      if (plan.cls < 0) {
        for (let id = 0; id < results.length; id++) this.mark(id, results[id] === 1);
        plan.cls = this.intern();
      }
      return plan.cls;
    }
    const progs = plan.progs;
    for (let id = 0; id < progs.length; id++) {
      const prog = progs[id]!;
      this.mark(id, prog !== NEVER && runList(prog, path));
    }
    return this.intern();
  }

  /** Sets in `sig` the bit of list `id` for a path it includes (`included`) or not. */
  private mark(id: number, included: boolean): void {
    const bit = included ? this.inBit[id]! : this.outBit[id]!;
    if (bit >= 0) this.sig[(bit / BITS) | 0]! |= 1 << bit % BITS;
  }

  /**
   * The class of the signal in `sig`: with one word the word itself (no table needed), with more
   * the id of the signal among those seen, a new id for a new signal.
   */
  private intern(): number {
    const sig = this.sig;
    if (this.words === 1) return sig[0]!;
    const key = sig.join(',');
    let cls = this.classIds.get(key);
    if (cls === undefined) {
      if (this.classIds.size >= this.maxCached) this.forgetClasses();
      cls = this.classIds.size;
      this.classIds.set(key, cls);
      for (let w = 0; w < sig.length; w++) this.classWords.push(sig[w]!);
    }
    return cls;
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

  private forgetPaths(): void {
    this.pathClass = Object.create(null) as Record<string, number>;
    this.pathCount = 0;
  }

  /** Drops every class id and what refers to one (paths, group plans); answers are kept by signal. */
  private forgetClasses(): void {
    this.classIds.clear();
    this.classWords.length = 0;
    this.forgetPaths();
    this.dirs.clear();
    this.sharedPlans.clear();
    this.lastDir = undefined;
  }

  /** The plan of the directory of a path whose name starts at `nameStart`. */
  private dirFor(path: string, nameStart: number): DirPlan {
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
    return dirPlan;
  }

  private planFor(path: string): GroupPlan {
    const nameStart = nameStartOf(path);
    return this.groupFor(this.dirFor(path, nameStart), path, nameStart);
  }

  /** The group plan of a path in `dirPlan`'s directory (by its name ending). */
  private groupFor(dirPlan: DirPlan, path: string, nameStart: number): GroupPlan {
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
    return { dir, lists, ...shared, decided: lists.every((l) => l === null || l.infos.length === 0), cls: -1 };
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
    return { progs, entries: Int32Array.from(entries), dynamic: Uint8Array.from(dynamic), fixed, results, cls: -1 };
  }
}

/** Section 18 branch predicates; `branches: []` is no filter (section 19 point 5). */
export function passesBranches(t: CompiledTrigger, branch: string): boolean {
  const f = t.filters;
  if (f.branches !== undefined && f.branches.length > 0 && !isIncluded(f.branches, branch)) return false;
  if (f['branches-ignore'] !== undefined && isIncluded(f['branches-ignore'], branch)) return false;
  return true;
}
