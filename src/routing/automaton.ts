/**
 * Path patterns read all at once: the patterns (ROUTING.md section 10, as compiled by pattern.ts)
 * are read into one nondeterministic automaton over UTF-16 code units, and its deterministic
 * states are built on demand, one per set of automaton positions reached (a lazily built subset
 * construction). One pass over a path's characters, one table read per character, ends in a
 * state that knows which patterns match the whole path. No string is sliced, split or hashed per
 * path. An automaton reads paths from their start (`forward`) or from their end (the patterns
 * read backwards): patterns that start with `**` and end in a literal (`**\/*.md`) are decided by
 * the end of a path, and read backwards their automaton stops at the first character that rules
 * them all out, as a forward one does for literal prefixes (`docs/**`).
 *
 * Characters are read in classes: every code unit that some pattern names (a literal, a member of
 * a `[...]` class) and `/` has a class of its own, every other code unit shares class 0, which
 * only `*` (not `/`) and `**` (anything) accept.
 *
 * Code units, not code points: a character outside the BMP is two steps. That matches the
 * regexes (which use the `u` flag when a pattern has such a character) because nothing in the
 * language accepts exactly one arbitrary character: `*` and `**` accept any run of characters,
 * which is the same set of strings counted either way, and a quantified literal quantifies both
 * of its code units together. A pattern with a lone surrogate is the exception (the `u` regex
 * will not split a pair for it): `PathAutomaton.supports` says no for it, and the caller keeps
 * the regexes.
 */

/** Edge labels: any code unit, any but `/`, or (>= 0) one of the automaton's sets of code units. */
const ANY = -1;
const NOT_SLASH = -2;
const SLASH = 47;

/** States reached before the table is dropped and built again (memory bound); per state, one entry per character class. */
const MAX_STATES = 20_000;
const MAX_ENTRIES = 1 << 22;

/**
 * One item of a pattern body: an atom (a literal character, as one or two code units, or a
 * `[...]` class) with its quantifier, a loop (`*`: not `/`; `**`: anything), or `**` + `/`
 * (`(?:.+/)?`).
 */
type Item =
  | { readonly kind: 'atom'; readonly steps: readonly (readonly number[])[]; quant: '' | '?' | '+' }
  | { readonly kind: 'loop'; readonly label: number }
  | { readonly kind: 'dirs' };

/**
 * Reads a body (without `!`) as compilePattern (pattern.ts) does, which has already accepted it:
 * `**` + `/` is `(?:.+/)?`, `**` `.*`, `*` `[^/]*`, `?`/`+` quantify the preceding atom (literal
 * when first; after `*`/`**` or a quantifier a `?` only makes it lazy, which changes nothing for a
 * whole-string match), `[...]` one listed character, `\c` the character c.
 */
export function readBody(body: string): Item[] {
  const chars = Array.from(body);
  const items: Item[] = [];
  const literal = (ch: string): void => {
    const steps: number[][] = [];
    for (let i = 0; i < ch.length; i++) steps.push([ch.charCodeAt(i)]);
    items.push({ kind: 'atom', steps, quant: '' });
  };
  let pos = 0;
  while (pos < chars.length) {
    const ch = chars[pos]!;
    const last = items[items.length - 1];
    if (ch === '*') {
      if (chars[pos + 1] === '*') {
        if (chars[pos + 2] === '/') {
          items.push({ kind: 'dirs' });
          pos += 3;
        } else {
          items.push({ kind: 'loop', label: ANY });
          pos += 2;
        }
      } else {
        items.push({ kind: 'loop', label: NOT_SLASH });
        pos += 1;
      }
    } else if (ch === '?' || ch === '+') {
      if (last === undefined) literal(ch);
      else if (last.kind === 'atom' && last.quant === '') last.quant = ch;
      // Otherwise a lazy `?`: nothing to do (compilePattern refuses any other quantifier here).
      pos += 1;
    } else if (ch === '[') {
      const units: number[] = [];
      pos += 1;
      while (pos < chars.length && chars[pos] !== ']') {
        const lo = chars[pos]!;
        if (chars[pos + 1] === '-' && pos + 2 < chars.length && chars[pos + 2] !== ']') {
          for (let u = lo.charCodeAt(0); u <= chars[pos + 2]!.charCodeAt(0); u++) units.push(u);
          pos += 3;
        } else {
          units.push(lo.charCodeAt(0));
          pos += 1;
        }
      }
      pos += 1; // the `]`
      items.push({ kind: 'atom', steps: [units], quant: '' });
    } else if (ch === '\\') {
      literal(chars[pos + 1]!);
      pos += 2;
    } else {
      literal(ch);
      pos += 1;
    }
  }
  return items;
}

/** The positions and edges of the nondeterministic automaton, built item by item. */
class Builder {
  /** Per position: labels and targets of its edges, and its empty moves. */
  readonly labels: number[][] = [];
  readonly targets: number[][] = [];
  readonly eps: number[][] = [];
  /** Sets of code units named by the patterns (edge labels >= 0). */
  readonly sets: number[][] = [];
  readonly units = new Set<number>([SLASH]);

  node(): number {
    this.labels.push([]);
    this.targets.push([]);
    this.eps.push([]);
    return this.labels.length - 1;
  }

  edge(from: number, label: number, to: number): void {
    this.labels[from]!.push(label);
    this.targets[from]!.push(to);
  }

  empty(from: number, to: number): void {
    this.eps[from]!.push(to);
  }

  private readonly setIds = new Map<string, number>();

  /** The label of a set of code units (the same set, the same label). */
  set(units: readonly number[]): number {
    const key = units.join(',');
    let id = this.setIds.get(key);
    if (id === undefined) {
      for (const u of units) this.units.add(u);
      id = this.sets.push([...units]) - 1;
      this.setIds.set(key, id);
    }
    return id;
  }

  /**
   * Adds the items from position `cur` (read backwards when `backwards`: items and the code
   * units of each atom in reverse order); returns the accepting position. Every item starts at a
   * fresh position reached by an empty move, so a quantifier's or a loop's moves never mix with
   * the edges of what comes before.
   */
  add(items: readonly Item[], cur: number, backwards: boolean): number {
    const order = backwards ? [...items].reverse() : items;
    if (order.length === 0) {
      const end = this.node();
      this.empty(cur, end);
      return end;
    }
    for (const item of order) {
      const first = this.node();
      this.empty(cur, first);
      if (item.kind === 'atom') {
        let at = first;
        const steps = backwards ? [...item.steps].reverse() : item.steps;
        for (const units of steps) {
          const next = this.node();
          this.edge(at, this.set(units), next);
          at = next;
        }
        if (item.quant === '?') this.empty(first, at);
        else if (item.quant === '+') this.empty(at, first);
        cur = at;
      } else if (item.kind === 'loop') {
        this.edge(first, item.label, first);
        cur = first;
      } else if (!backwards) {
        // (?:.+/)?: one or more of anything then `/`, or nothing.
        const loop = this.node();
        const end = this.node();
        this.edge(first, ANY, loop);
        this.edge(loop, ANY, loop);
        this.edge(loop, this.set([SLASH]), end);
        this.empty(first, end);
        cur = end;
      } else {
        // Backwards: (?:/.+)?.
        const one = this.node();
        const loop = this.node();
        const end = this.node();
        this.edge(first, this.set([SLASH]), one);
        this.edge(one, ANY, loop);
        this.edge(loop, ANY, loop);
        this.empty(loop, end);
        this.empty(first, end);
        cur = end;
      }
    }
    return cur;
  }
}

function equal(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A lone surrogate: the `u` regex and a code-unit automaton can differ on it. */
function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return true;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** A body that starts with `**` and ends in a literal: decided by the end of a path, read backwards. */
export function readsBackwards(body: string): boolean {
  if (!body.startsWith('**')) return false;
  const items = readBody(body);
  const last = items[items.length - 1];
  return last !== undefined && last.kind === 'atom' && last.quant === '';
}

export class PathAutomaton {
  /** Can this pattern body (without `!`) be read into the automaton with the same answers as its regex? */
  static supports(body: string): boolean {
    return !hasLoneSurrogate(body);
  }

  /** Character class of every code unit. */
  private readonly cmap: Uint8Array | Uint16Array;
  /** Row length of the table: the number of character classes rounded up to a power of two, 2 ** `shift`. */
  private readonly width: number;
  private readonly shift: number;
  /** Edges of position p: labels and targets at `edgeStart[p]` up to `edgeStart[p + 1]`. */
  private readonly edgeStart: Int32Array;
  private readonly edgeLabel: Int32Array;
  private readonly edgeTarget: Int32Array;
  /**
   * Per position p, at `reachStart[p]` up to `reachStart[p + 1]` of `reachData`: the positions
   * reachable from it by empty moves that matter (with an edge, or accepting), itself included
   * when it matters. States hold only positions that matter.
   */
  private readonly reachStart: Int32Array;
  private readonly reachData: Int32Array;
  /** Per edge label >= 0: 1 for each character class it accepts. */
  private readonly accepts: readonly Uint8Array[];
  private readonly slashClass: number;
  private readonly start: number;
  /** Per position: the body it accepts (-1: none). */
  private readonly acceptsBody: Int32Array;

  /**
   * The table: `width` entries per state, each the next state's offset (its number × width), or
   * -1 when not built yet. State 0 is the empty set (no pattern can match any more).
   */
  private table: Int32Array;
  /** Positions of each state, sorted. */
  private members: Int32Array[] = [];
  /** Per state: the bodies it accepts, once worked out. */
  private acceptedBy: (Int32Array | undefined)[] = [];
  /** State numbers by the hash of their positions. */
  private ids = new Map<number, number[]>();
  /** Offset of the start state, and whether it is settled (see `settled`). */
  private startOffset = 0;
  private startSettled = false;
  /** The start is settled, or there are more states than `maxStates`: `run` has more to do than read. */
  private unusual = false;
  /** Scratch: marks of positions. */
  private readonly mark: Int32Array;
  private stamp = 0;
  /** States kept before the table is dropped and built again. */
  private readonly maxStates: number;
  /** Number of times the table was dropped for its size. */
  resets = 0;

  /**
   * `bodies`: pattern bodies (without `!`) that `supports` accepts; `backwards`: paths are read
   * from their end. `maxStates` bounds the states kept (the table is dropped and built again past it, and `onReset` told).
   */
  constructor(
    bodies: readonly string[],
    readonly backwards = false,
    maxStates = MAX_STATES,
    /** Called when the table is dropped: state numbers given before are void. */
    private readonly onReset?: () => void,
  ) {
    const b = new Builder();
    const start = b.node();
    const accepting = bodies.map((body) => b.add(readBody(body), start, backwards));
    this.start = start;
    const units = [...b.units].sort((x, y) => x - y);
    // Class 0: every code unit no pattern names.
    this.shift = Math.ceil(Math.log2(units.length + 1));
    this.width = 1 << this.shift;
    this.cmap = units.length < 256 ? new Uint8Array(65536) : new Uint16Array(65536);
    units.forEach((u, i) => (this.cmap[u] = i + 1));
    this.slashClass = this.cmap[SLASH]!;
    this.accepts = b.sets.map((set) => {
      const a = new Uint8Array(this.width);
      for (const u of set) a[this.cmap[u]!] = 1;
      return a;
    });
    const n = b.labels.length;
    this.edgeStart = new Int32Array(n + 1);
    for (let p = 0; p < n; p++) this.edgeStart[p + 1] = this.edgeStart[p]! + b.labels[p]!.length;
    this.edgeLabel = Int32Array.from(b.labels.flat());
    this.edgeTarget = Int32Array.from(b.targets.flat());
    this.acceptsBody = new Int32Array(n).fill(-1);
    // Two bodies never share an accepting position: each item starts at a fresh one.
    accepting.forEach((p, k) => (this.acceptsBody[p] = k));
    const matters = new Uint8Array(n);
    b.labels.forEach((l, p) => (matters[p] = l.length > 0 || this.acceptsBody[p]! >= 0 ? 1 : 0));
    this.mark = new Int32Array(n);
    this.reachStart = new Int32Array(n + 1);
    const reach: number[] = [];
    const stack: number[] = [];
    for (let from = 0; from < n; from++) {
      const stamp = ++this.stamp;
      stack.push(from);
      while (stack.length > 0) {
        const p = stack.pop()!;
        if (this.mark[p] === stamp) continue;
        this.mark[p] = stamp;
        if (matters[p] === 1) reach.push(p);
        for (const q of b.eps[p]!) if (this.mark[q] !== stamp) stack.push(q);
      }
      this.reachStart[from + 1] = reach.length;
    }
    this.reachData = Int32Array.from(reach);
    // The table's memory is bounded too: at most MAX_ENTRIES entries (16 MB).
    this.maxStates = Math.max(1, Math.min(maxStates, Math.floor(MAX_ENTRIES / this.width)));
    this.table = new Int32Array(0);
    this.reset();
  }

  /** Drops every state but the empty one and the start. */
  private reset(): void {
    this.members = [];
    this.acceptedBy = [];
    this.ids = new Map();
    this.table = new Int32Array(this.width * 64).fill(-1);
    const dead = this.intern(new Int32Array(0));
    this.table.fill(dead, 0, this.width);
    const start = this.reachData.slice(this.reachStart[this.start]!, this.reachStart[this.start + 1]!).sort();
    this.startOffset = this.intern(start);
    this.startSettled = start.length > 0 && this.settled(start);
    this.unusual = this.startSettled;
  }

  /**
   * The number of the state a path ends in (0: no body matches), for `accepted`. Valid until the
   * next call, which may drop the table when it has grown past its bound (`resets` tells).
   */
  run(path: string): number {
    if (this.unusual) {
      if (this.members.length > this.maxStates) {
        this.resets++;
        this.reset();
        this.onReset?.();
      }
      if (this.startSettled) return this.startOffset >> this.shift;
    }
    return this.backwards ? this.runBackwards(path) : this.runForward(path);
  }

  private runForward(path: string): number {
    const cmap = this.cmap;
    let table = this.table;
    let s = this.startOffset;
    for (let i = 0; i < path.length; i++) {
      const c = cmap[path.charCodeAt(i)]!;
      let next = table[s + c]!;
      if (next <= 0) {
        // The empty set (0): no body can match whatever follows.
        if (next === 0) return 0;
        if (next === -1) {
          next = this.step(s, c);
          table = this.table;
          if (next === 0) return 0;
        }
        // A state that every character leaves as it is: what follows changes nothing.
        if (next < -1) return (-2 - next) >> this.shift;
      }
      s = next;
    }
    return s >> this.shift;
  }

  // runForward read from the end: kept as its own loop, the hot path of routing, rather than one loop with a direction.
  private runBackwards(path: string): number {
    const cmap = this.cmap;
    let table = this.table;
    let s = this.startOffset;
    for (let i = path.length - 1; i >= 0; i--) {
      const c = cmap[path.charCodeAt(i)]!;
      let next = table[s + c]!;
      if (next <= 0) {
        if (next === 0) return 0;
        if (next === -1) {
          next = this.step(s, c);
          table = this.table;
          if (next === 0) return 0;
        }
        if (next < -1) return (-2 - next) >> this.shift;
      }
      s = next;
    }
    return s >> this.shift;
  }

  /** The bodies (indexes into the constructor's list, ascending) that match a path ending in state `id`. */
  accepted(id: number): Int32Array {
    let out = this.acceptedBy[id];
    if (out === undefined) {
      const ks: number[] = [];
      for (const p of this.members[id]!) if (this.acceptsBody[p]! >= 0) ks.push(this.acceptsBody[p]!);
      out = Int32Array.from(ks).sort();
      this.acceptedBy[id] = out;
    }
    return out;
  }

  /** Builds the move of the state at `offset` on character class `c`; returns the next state's offset. */
  private step(offset: number, c: number): number {
    const from = this.members[offset >> this.shift]!;
    const stamp = ++this.stamp;
    const mark = this.mark;
    const out: number[] = [];
    const slash = c === this.slashClass;
    const { edgeStart, edgeLabel, edgeTarget, reachStart, reachData } = this;
    for (const p of from) {
      for (let e = edgeStart[p]!; e < edgeStart[p + 1]!; e++) {
        const label = edgeLabel[e]!;
        if (label === ANY || (label === NOT_SLASH ? !slash : this.accepts[label]![c] === 1)) {
          const t = edgeTarget[e]!;
          for (let r = reachStart[t]!; r < reachStart[t + 1]!; r++) {
            const q = reachData[r]!;
            if (mark[q] !== stamp) {
              mark[q] = stamp;
              out.push(q);
            }
          }
        }
      }
    }
    const positions = Int32Array.from(out).sort();
    const next = this.intern(positions);
    // The move into a settled state is kept as -2 - its offset: reading stops there.
    const entry = next !== 0 && this.settled(positions) ? -2 - next : next;
    this.table[offset + c] = entry;
    return entry;
  }

  /**
   * A state that every character leaves as it is: each of its positions with an edge has no edge
   * but a loop on any character (`**` at the end of a body), and what those loops reach by empty
   * moves is the whole state (a position without edges that only an earlier character led to
   * would be lost by the next one).
   */
  private settled(positions: Int32Array): boolean {
    const stamp = ++this.stamp;
    const mark = this.mark;
    let loops = 0;
    const { edgeStart, edgeLabel, edgeTarget, reachStart, reachData } = this;
    for (const p of positions) {
      if (edgeStart[p] === edgeStart[p + 1]) continue;
      for (let e = edgeStart[p]!; e < edgeStart[p + 1]!; e++) if (edgeLabel[e] !== ANY || edgeTarget[e] !== p) return false;
      loops++;
      for (let r = reachStart[p]!; r < reachStart[p + 1]!; r++) mark[reachData[r]!] = stamp;
    }
    if (loops === 0) return false;
    for (const p of positions) if (mark[p] !== stamp) return false;
    return true;
  }

  /** The offset of the state with these (sorted) positions, a new state when there is none. */
  private intern(positions: Int32Array): number {
    // FNV-1a over the positions; states with the same hash are told apart by their positions.
    let h = 0x811c9dc5;
    for (let i = 0; i < positions.length; i++) h = Math.imul(h ^ positions[i]!, 0x01000193);
    const same = this.ids.get(h);
    if (same !== undefined) {
      for (const id of same) if (equal(this.members[id]!, positions)) return id * this.width;
    }
    const id = this.members.length;
    this.members.push(positions);
    if (id >= this.maxStates) this.unusual = true;
    if (same === undefined) this.ids.set(h, [id]);
    else same.push(id);
    const need = (id + 1) * this.width;
    if (need > this.table.length) {
      const grown = new Int32Array(Math.max(need, this.table.length * 2)).fill(-1);
      grown.set(this.table);
      this.table = grown;
    }
    return id * this.width;
  }

  /** Number of states built since the last reset. */
  get states(): number {
    return this.members.length;
  }
}
