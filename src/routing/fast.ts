/**
 * The fast path of the evaluator: the same decisions as section 18 without explanations, for
 * routing many change sets under one context (the repository prior, paired-state searches,
 * benchmarks over a repository's history).
 *
 * For one context, the context predicates (merge conflict, types, branches) are decided once;
 * what is left depends on the changed paths only. The path lists of all workflows form one set
 * (identical lists shared), and their patterns are read into two automata (automaton.ts): the
 * patterns that start with `**` and end in a literal (`**\/*.md`), read from the end of a path,
 * and all others, read from its start. One pass each over a path's characters decides every
 * pattern at once, whether or not the path was seen before, with nothing sliced, split or hashed
 * per path; a pass stops as soon as no pattern can match any more, or when what follows can
 * change nothing (`docs/**` after `docs/`).
 *
 * What a change set activates depends only on which lists some of its (first 300) paths are
 * included by (for `paths`) or not ignored by (for `paths-ignore`). The two states a path ends in
 * give its signal, one bit per list and use, worked out once per pair of states (the last matching
 * pattern of each list decides, section 11); a change set ORs the signals of its paths (stopping once every
 * bit is set) and reads the answer kept for that signal, computed once from the triggers: no
 * allocation per change set, and workflows without path filters cost nothing.
 */
import { PathAutomaton, readsBackwards } from './automaton.js';
import { DEFAULT_TYPES, DIFF_LIMIT, type CompiledTrigger, type CompiledWorkflow } from './compile.js';
import { isIncluded, type CompiledPattern } from './pattern.js';

/** A trigger that passed the context predicates: ids of its `paths` / `paths-ignore` lists (-1: absent). */
interface Step {
  readonly pathsId: number;
  readonly ignoreId: number;
}

interface Entry {
  readonly path: string;
  readonly steps: readonly Step[];
}

/** Signal classes and answers kept per context; cleared past this many. */
const MAX_CACHED = 200_000;
const SMALL_BITS = 12;
/** States of each automaton kept before its table is dropped and built again. */
const MAX_STATES = 20_000;
/** Paths a plan judges with the regexes before it builds its automata. */
const LAZY_PATHS = 32;
/** Cells of the class-by-states rows kept before they start again (16 MB). */
const MAX_ROW_CELLS = 1 << 22;
/** Signal bits per word: 30 keeps every word a small integer (no heap number) in V8. */
const BITS = 30;

function hasBit(signal: Int32Array, bit: number): boolean {
  return (signal[(bit / BITS) | 0]! & (1 << bit % BITS)) !== 0;
}

export class ContextPlan {
  private readonly entries: readonly Entry[];
  private readonly lists: readonly (readonly CompiledPattern[])[];
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
  /** Answers by signal: with one word a map from the word; with more, nested maps word by word. */
  private answers = new Map<number, unknown>();
  private answerCount = 0;
  /** With at most SMALL_BITS signal bits: the answers by signal in an array (at most 2 ** SMALL_BITS of them, no bound needed). */
  private readonly small: (readonly string[] | undefined)[] | null;
  /** Scratch for the signal of one change set, and for the signal of one path. */
  private readonly acc: Int32Array;
  private readonly sig: Int32Array;
  /**
   * The distinct pattern bodies of the lists (a pattern and its `!` form share one), and per list
   * the body of each of its patterns.
   */
  private readonly bodies: readonly string[] = [];
  private readonly listBodies: readonly Int32Array[] = [];
  /**
   * The bodies in two automata (automaton.ts): those read backwards (`**` then a literal ending)
   * and the others; per automaton, the body numbers of its bodies. `regexOnly` when some body
   * cannot be read into one (PathAutomaton.supports): the regexes judge then.
   */
  private forward: PathAutomaton | null = null;
  private backward: PathAutomaton | null = null;
  private forwardBodies = new Int32Array(0);
  private backwardBodies = new Int32Array(0);
  private readonly regexOnly: boolean;
  /**
   * Paths judged by the regexes before the automata are built: a plan that routes a handful of
   * paths (a paired-state search routes a few change sets per workflows tree and context) does
   * not pay for building them.
   */
  private regexPaths = 0;
  /** The signal class of a path by the states it ends in: row by forward state, column by backward state (-1: not worked out). */
  private rows: (Int32Array | undefined)[] = [];
  private rowCells = 0;
  /** With more than one signal word: the answer for a change set of one path, by its class. */
  private oneAnswers: (readonly string[] | undefined)[] = [];
  /** Scratch: marks of bodies. */
  private readonly bodyMark: Int32Array;
  private stamp = 0;

  /**
   * `branch` is the short base branch name. `maxCached` bounds the signal classes and the answers
   * kept (each is cleared when it reaches the bound) and the automaton's states (dropped and built
   * again past it).
   */
  constructor(
    workflows: readonly CompiledWorkflow[],
    ctx: { readonly action: string; readonly merge_conflict?: boolean },
    branch: string,
    private readonly maxCached = MAX_CACHED,
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
    this.lists = lists;
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
    this.small = bits <= SMALL_BITS ? new Array<readonly string[] | undefined>(1 << bits).fill(undefined) : null;
    this.acc = new Int32Array(this.words);
    this.sig = new Int32Array(this.words);
    const bodies: string[] = [];
    const byBody = new Map<string, number>();
    this.listBodies = lists.map((patterns) =>
      Int32Array.from(patterns, (p) => {
        const body = p.negative ? p.source.slice(1) : p.source;
        let k = byBody.get(body);
        if (k === undefined) {
          k = bodies.push(body) - 1;
          byBody.set(body, k);
        }
        return k;
      }),
    );
    this.bodies = bodies;
    this.bodyMark = new Int32Array(bodies.length);
    this.regexOnly = !bodies.every((body) => PathAutomaton.supports(body));
  }

  /** Reads the bodies into the two automata (see `forward`). */
  private buildAutomata(): void {
    const bodies = this.bodies;
    const back: number[] = [];
    const fore: number[] = [];
    for (let k = 0; k < bodies.length; k++) (readsBackwards(bodies[k]!) ? back : fore).push(k);
    this.forwardBodies = Int32Array.from(fore);
    this.backwardBodies = Int32Array.from(back);
    const maxStates = Math.min(this.maxCached, MAX_STATES);
    const forget = (): void => {
      this.rows = [];
      this.rowCells = 0;
    };
    this.forward = new PathAutomaton(fore.map((k) => bodies[k]!), false, maxStates, forget);
    this.backward = new PathAutomaton(back.map((k) => bodies[k]!), true, maxStates, forget);
  }

  /**
   * Activated workflow paths (in workflow path order) for one change set. The array may be shared
   * with other answers of this plan: read it, do not change it.
   *
   * The answer depends only on which signal bits some path (of the first 300) sets: a `paths` list
   * needs some included path (its `inBit`), a `paths-ignore` list some path that is not ignored
   * (its `outBit`). Each path's class comes from the automaton; a change set ORs the signals,
   * stops early once every bit is set, and reads its answer from the answers kept per signal.
   */
  activated(changedPaths: readonly string[]): readonly string[] {
    if (changedPaths.length === 1) {
      const cls = this.classOf(changedPaths[0]!);
      if (this.words === 1) {
        this.acc[0] = cls;
        const small = this.small;
        if (small !== null) return small[cls] ?? (small[cls] = this.answerFor(this.acc));
        return this.answerOfAcc();
      }
      const known = this.oneAnswers[cls];
      if (known !== undefined) return known;
      for (let w = 0; w < this.words; w++) this.acc[w] = this.classWords[cls * this.words + w]!;
      return (this.oneAnswers[cls] = this.answerOfAcc());
    }
    const n = changedPaths.length > DIFF_LIMIT ? DIFF_LIMIT : changedPaths.length;
    if (this.words === 1) {
      const full = this.full[0]!;
      let acc = 0;
      // One word: a path's class is its signal word.
      for (let i = 0; i < n && acc !== full; i++) acc |= this.classOf(changedPaths[i]!);
      const small = this.small;
      if (small !== null) {
        const known = small[acc];
        if (known !== undefined) return known;
        this.acc[0] = acc;
        return (small[acc] = this.answerFor(this.acc));
      }
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
    return this.answerOfAcc();
  }

  /** The answer for the signal in `acc`, kept per signal. */
  private answerOfAcc(): readonly string[] {
    const acc = this.acc;
    const words = this.words;
    if (words === 1) {
      const known = this.answers.get(acc[0]!) as readonly string[] | undefined;
      return known ?? this.remember(this.answerFor(acc));
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

  /** The signal class of one path: by the states the two automata end in, or with the regexes. */
  private classOf(path: string): number {
    const forward = this.forward;
    if (forward === null) {
      if (this.regexOnly || ++this.regexPaths <= LAZY_PATHS) {
        this.sig.fill(0);
        for (let id = 0; id < this.lists.length; id++) this.mark(id, isIncluded(this.lists[id]!, path));
        return this.intern();
      }
      this.buildAutomata();
      return this.classOf(path);
    }
    const f = forward.run(path);
    const b = this.backward!.run(path);
    const row = this.rows[f];
    if (row !== undefined && b < row.length) {
      const cls = row[b]!;
      if (cls >= 0) return cls;
    }
    return this.pairClass(f, b);
  }

  /** Works out and keeps the class of paths ending in forward state `f` and backward state `b`. */
  private pairClass(f: number, b: number): number {
    const stamp = ++this.stamp;
    const mark = this.bodyMark;
    for (const k of this.forward!.accepted(f)) mark[this.forwardBodies[k]!] = stamp;
    for (const k of this.backward!.accepted(b)) mark[this.backwardBodies[k]!] = stamp;
    this.sig.fill(0);
    for (let id = 0; id < this.lists.length; id++) {
      // Section 11: the last pattern of the list that matches decides.
      const patterns = this.lists[id]!;
      const ks = this.listBodies[id]!;
      let included = false;
      for (let i = ks.length - 1; i >= 0; i--) {
        if (mark[ks[i]!] === stamp) {
          included = !patterns[i]!.negative;
          break;
        }
      }
      this.mark(id, included);
    }
    const cls = this.intern();
    let row = this.rows[f];
    if (row === undefined || b >= row.length) {
      const grown = new Int32Array(Math.max(16, b + 1, (row?.length ?? 0) * 2)).fill(-1);
      if (row !== undefined) grown.set(row);
      // Memory bound: past MAX_ROW_CELLS cells in all, the rows start again.
      this.rowCells += grown.length - (row?.length ?? 0);
      if (this.rowCells > MAX_ROW_CELLS) {
        this.rows = [];
        this.rowCells = grown.length;
      }
      row = grown;
      this.rows[f] = row;
    }
    row[b] = cls;
    return cls;
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

  /** Drops every class id and what refers to one (classes by states, one-path answers by class); answers are kept by signal. */
  private forgetClasses(): void {
    this.classIds.clear();
    this.classWords.length = 0;
    this.rows = [];
    this.rowCells = 0;
    this.oneAnswers = [];
  }
}

/** Section 18 branch predicates; `branches: []` is no filter (section 19 point 5). */
export function passesBranches(t: CompiledTrigger, branch: string): boolean {
  const f = t.filters;
  if (f.branches !== undefined && f.branches.length > 0 && !isIncluded(f.branches, branch)) return false;
  if (f['branches-ignore'] !== undefined && isIncluded(f['branches-ignore'], branch)) return false;
  return true;
}
