import { decideCutoff, foxtrotEvidence, isCutoff, reportSeconds, type Cutoff, type LineFacts, type PullRefs } from '../backward/cutoff.js';
import { MinerError } from '../errors.js';
import { formerBranchNames, isAncestor, readPullRefs } from './history.js';
import { runGit } from './runner.js';

interface Node {
  readonly sha: string;
  readonly parents: readonly string[];
  readonly time: number;
  readonly subject: string;
}

/**
 * One first-parent line (from a start commit down to the root), built as far as needed. For each
 * built position it keeps the smallest committer time so far (for a binary search of "the first
 * commit not after t") and the positions of the merges foxtrotEvidence names.
 */
class Line {
  readonly shas: string[] = [];
  private readonly prefixMin: number[] = [];
  private readonly foxtrots: number[] = [];
  private next: string | null;

  constructor(
    private readonly history: BranchHistory,
    start: string,
  ) {
    this.next = start;
  }

  private extendOne(): boolean {
    if (this.next === null) return false;
    const node = this.history.node(this.next);
    if (!node) {
      this.next = null;
      return false;
    }
    const i = this.shas.length;
    this.shas.push(node.sha);
    this.prefixMin.push(i === 0 ? node.time : Math.min(this.prefixMin[i - 1]!, node.time));
    if (node.parents.length >= 2 && foxtrotEvidence(node, this.history.branch, this.history.pulls, this.history.repoNames, this.history.formerBranches) !== null) this.foxtrots.push(i);
    this.next = node.parents[0] ?? null;
    return true;
  }

  /** Position of the first commit whose committer time is not after `limit`, or the line's length. */
  firstNotAfter(limit: number): number {
    while ((this.prefixMin.length === 0 || this.prefixMin[this.prefixMin.length - 1]! > limit) && this.extendOne());
    const n = this.prefixMin.length;
    if (n === 0 || this.prefixMin[n - 1]! > limit) return n;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.prefixMin[mid]! <= limit) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The facts decideCutoff needs at `limit`: of the merges above the cutoff, the foxtrot merges (newest first). */
  factsAt(limit: number): LineFacts {
    const at = this.firstNotAfter(limit);
    const merges = [];
    for (const f of this.foxtrots) {
      if (f >= at) break;
      merges.push(this.history.node(this.shas[f]!)!);
    }
    return { cutoff: at < this.shas.length ? this.shas[at]! : null, merges };
  }

  buildAll(): void {
    while (this.extendOne());
  }
}

/**
 * Everything the cutoff and the ancestry checks need about one branch, read once: every commit
 * reachable from its tip (one `rev-list` process: sha, parents, committer time, subject) and the
 * refs/pull/ heads (one `for-each-ref`). Then any number of cutoffs (decideCutoff, the facts of
 * each first-parent line indexed once) and ancestry questions are answered in memory, with the
 * same answers as computeCutoff and `merge-base --is-ancestor` (the per-case readers, kept in
 * history.ts as the reference; tests check that both agree).
 */
export class BranchHistory {
  private readonly nodes = new Map<string, Node>();
  private readonly lines = new Map<string, Line>();
  /** For each commit: the largest position on the tip's first-parent line from which it is reachable. */
  private depth: Map<string, number> | null = null;
  private generation: Map<string, number> | null = null;
  private roots: Map<string, bigint> | null | undefined = undefined;

  private constructor(
    readonly gitDir: string,
    readonly branch: string,
    readonly tip: string,
    /** The repository's refs/pull/ heads (foxtrot evidence). */
    readonly pulls: PullRefs,
    /** The repository's owner/name and former names (foxtrot evidence: a branch merged "of" another repository is none). */
    readonly repoNames: readonly string[],
    /** Names the branch had before (formerBranchNames: foxtrot evidence in merge subjects written then). */
    readonly formerBranches: readonly string[] = [],
  ) {}

  /** Reads the branch's history; a missing branch is a not-found error naming it. */
  static async load(gitDir: string, branch: string, repoNames: readonly string[] = []): Promise<BranchHistory> {
    const ref = `refs/heads/${branch}`;
    const tipOut = await runGit(gitDir, ['rev-parse', '--verify', '-q', `${ref}^{commit}`], { allowExit: [0, 1] });
    if (tipOut.exitCode !== 0) throw new MinerError('not-found', `${gitDir}: branch ${branch} not found`);
    const tip = tipOut.stdout.trim();
    const [log, pulls, formerBranches] = await Promise.all([
      runGit(gitDir, ['rev-list', '--no-commit-header', '--format=%H%x00%P%x00%ct%x00%s', tip, '--']),
      readPullRefs(gitDir),
      formerBranchNames(gitDir, branch),
    ]);
    const history = new BranchHistory(gitDir, branch, tip, pulls, repoNames, formerBranches);
    const text = log.stdout;
    let at = 0;
    while (at < text.length) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      if (end > at) {
        const l = text.slice(at, end);
        const a = l.indexOf('\0');
        const b = l.indexOf('\0', a + 1);
        const c = l.indexOf('\0', b + 1);
        const sha = l.slice(0, a);
        const parents = b > a + 1 ? l.slice(a + 1, b).split(' ') : [];
        history.nodes.set(sha, { sha, parents, time: Number(l.slice(b + 1, c)), subject: l.slice(c + 1) });
      }
      at = end + 1;
    }
    return history;
  }

  /** Number of commits reachable from the tip. */
  get size(): number {
    return this.nodes.size;
  }

  node(sha: string): Node | undefined {
    return this.nodes.get(sha);
  }

  private line(start: string): Line {
    let line = this.lines.get(start);
    if (!line) {
      line = new Line(this, start);
      this.lines.set(start, line);
    }
    return line;
  }

  /** The branch as it stood at `reportTime` (decideCutoff): the same answer as computeCutoff(gitDir, branch, reportTime). */
  cutoff(reportTime: Date): Cutoff {
    const limit = reportSeconds(reportTime);
    const tipRef = `refs/heads/${this.branch}`;
    const answer = decideCutoff(
      this.branch,
      reportTime,
      this.pulls,
      (start) => this.line(start === tipRef ? this.tip : start).factsAt(limit),
      this.repoNames,
      this.formerBranches,
      (m) => this.related(m.parents[0]!, m.parents[1]!),
    );
    if (!isCutoff(answer)) throw new MinerError('internal', `${this.gitDir}: the history of ${this.branch} has no line from ${'missing' in answer ? answer.missing : answer.relationOf.sha}`);
    return answer;
  }

  /** Whether two commits share an ancestor: with one root commit always; otherwise by the roots each reaches (read once). */
  private related(a: string, b: string): boolean {
    const roots = this.rootsReached();
    if (roots === null) return true;
    const x = roots.get(a);
    const y = roots.get(b);
    return x === undefined || y === undefined || (x & y) !== 0n;
  }

  /** For every commit, the root commits it reaches as a bit set; null when the history has a single root. */
  private rootsReached(): Map<string, bigint> | null {
    if (this.roots !== undefined) return this.roots;
    let count = 0;
    for (const node of this.nodes.values()) if (node.parents.length === 0) count += 1;
    if (count <= 1) return (this.roots = null);
    const reached = new Map<string, bigint>();
    let next = 0n;
    for (const start of this.nodes.keys()) {
      if (reached.has(start)) continue;
      // Depth first, parents before the commit: iterative, for histories far deeper than the call stack.
      const stack: [string, boolean][] = [[start, false]];
      while (stack.length > 0) {
        const [sha, done] = stack.pop()!;
        if (reached.has(sha)) continue;
        const node = this.nodes.get(sha);
        if (!node) {
          reached.set(sha, 0n);
          continue;
        }
        if (!done) {
          stack.push([sha, true]);
          for (const parent of node.parents) if (!reached.has(parent)) stack.push([parent, false]);
          continue;
        }
        let bits = node.parents.length === 0 ? 1n << next++ : 0n;
        for (const parent of node.parents) bits |= reached.get(parent) ?? 0n;
        reached.set(sha, bits);
      }
    }
    return (this.roots = reached);
  }

  private ensureDepth(): Map<string, number> {
    if (this.depth) return this.depth;
    const main = this.line(this.tip);
    main.buildAll();
    const depth = new Map<string, number>();
    // From the oldest line commit up: whatever a line commit reaches and no older one did gets its position.
    for (let i = main.shas.length - 1; i >= 0; i--) {
      const stack = [main.shas[i]!];
      while (stack.length > 0) {
        const sha = stack.pop()!;
        if (depth.has(sha)) continue;
        depth.set(sha, i);
        const node = this.nodes.get(sha);
        if (node) for (const parent of node.parents) if (!depth.has(parent)) stack.push(parent);
      }
    }
    this.depth = depth;
    return depth;
  }

  private ensureGeneration(): Map<string, number> {
    if (this.generation) return this.generation;
    const gen = new Map<string, number>();
    for (const start of this.nodes.keys()) {
      if (gen.has(start)) continue;
      const stack: string[] = [start];
      while (stack.length > 0) {
        const sha = stack[stack.length - 1]!;
        if (gen.has(sha)) {
          stack.pop();
          continue;
        }
        const parents = (this.nodes.get(sha)?.parents ?? []).filter((p) => this.nodes.has(p));
        const pending = parents.filter((p) => !gen.has(p));
        if (pending.length > 0) {
          stack.push(...pending);
          continue;
        }
        stack.pop();
        gen.set(sha, 1 + Math.max(0, ...parents.map((p) => gen.get(p)!)));
      }
    }
    this.generation = gen;
    return gen;
  }

  /**
   * Whether `a` is an ancestor of `b` (or the same commit), answered in memory when `b` is
   * reachable from the tip; null when it is not (ask git).
   */
  isAncestor(a: string, b: string): boolean | null {
    if (!this.nodes.has(b)) return null;
    if (a === b) return true;
    if (!this.nodes.has(a)) return false;
    const depth = this.ensureDepth();
    const main = this.line(this.tip);
    const ib = main.shas.length > 0 && depth.get(b) !== undefined && main.shas[depth.get(b)!] === b ? depth.get(b)! : -1;
    if (ib >= 0) return depth.get(a)! >= ib;
    // Off the main line: a walk from b, pruned by generation numbers.
    const gen = this.ensureGeneration();
    const floor = gen.get(a)!;
    const seen = new Set<string>();
    const stack = [b];
    while (stack.length > 0) {
      const sha = stack.pop()!;
      if (sha === a) return true;
      if (seen.has(sha)) continue;
      seen.add(sha);
      for (const parent of this.nodes.get(sha)?.parents ?? []) if ((gen.get(parent) ?? 0) >= floor && !seen.has(parent)) stack.push(parent);
    }
    return false;
  }

  /** isAncestor in memory when `b` is reachable from the tip, else asked of git (`merge-base --is-ancestor`). */
  async ancestor(a: string, b: string): Promise<boolean> {
    return this.isAncestor(a, b) ?? isAncestor(this.gitDir, a, b);
  }

  /**
   * `git rev-list --count base..tip` in memory: commits reachable from `tip` but not from `base`,
   * when both are reachable from the branch; null otherwise (see countBetweenOutside).
   */
  countBetween(base: string, tip: string): number | null {
    if (!this.nodes.has(base) || !this.nodes.has(tip)) return null;
    return this.countExcluding([base], tip);
  }

  /**
   * countBetween for a `base` the branch does not reach (a pull request's own commit, a commit of
   * another branch): base's ancestors are read through `parentsOf` (the mirror's object reader,
   * no process per commit) until every path meets the branch's history; null when `tip` is not
   * in the history, a commit is missing, or more than `limit` commits lie outside (ask git).
   */
  async countBetweenOutside(
    base: string,
    tip: string,
    parentsOf: (sha: string) => Promise<readonly string[] | null>,
    limit = 5_000,
  ): Promise<number | null> {
    if (!this.nodes.has(tip)) return null;
    if (this.nodes.has(base)) return this.countExcluding([base], tip);
    const frontier: string[] = [];
    const outside = new Set<string>();
    const stack = [base];
    while (stack.length > 0) {
      const sha = stack.pop()!;
      if (this.nodes.has(sha)) {
        frontier.push(sha);
        continue;
      }
      if (outside.has(sha)) continue;
      if (outside.size >= limit) return null;
      outside.add(sha);
      const parents = await parentsOf(sha);
      if (parents === null) return null;
      stack.push(...parents);
    }
    // Commits outside the history are not ancestors of tip: the count is over the history only.
    return this.countExcluding(frontier, tip);
  }

  /**
   * Commits reachable from `tip` and from none of `bases` (all in the history).
   *
   * The ancestors of the first-parent line commit at position j are exactly the commits whose
   * depth (position of the oldest line commit reaching them) is at least j. So the ancestors of
   * the bases are a few commits off the line (walked until the walk meets the line) plus every
   * commit at or below the newest line position that walk met; the count then walks down from
   * `tip` only through commits that are neither.
   */
  private countExcluding(bases: readonly string[], tip: string): number {
    const depth = this.ensureDepth();
    const main = this.line(this.tip);
    let floor = Number.POSITIVE_INFINITY;
    const offLine = new Set<string>();
    const below = [...bases];
    while (below.length > 0) {
      const sha = below.pop()!;
      const d = depth.get(sha);
      if (d === undefined || d >= floor || offLine.has(sha)) continue;
      if (main.shas[d] === sha) {
        floor = d;
        continue;
      }
      offLine.add(sha);
      for (const parent of this.nodes.get(sha)?.parents ?? []) below.push(parent);
    }
    const seen = new Set<string>();
    const stack = [tip];
    while (stack.length > 0) {
      const sha = stack.pop()!;
      const d = depth.get(sha);
      if (d === undefined || d >= floor || offLine.has(sha) || seen.has(sha)) continue;
      seen.add(sha);
      for (const parent of this.nodes.get(sha)!.parents) if (!seen.has(parent)) stack.push(parent);
    }
    return seen.size;
  }
}
