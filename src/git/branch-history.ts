import { MinerError } from '../errors.js';
import { mergesBranchIn, type Cutoff, type FoxtrotEvidence } from './history.js';
import { runGit } from './runner.js';

const GITHUB_MERGE_BUTTON = /^Merge pull request #\d+ from /;
const NAMED_PULL = /\(#(\d+)\)\s*$/;

interface Node {
  readonly sha: string;
  readonly parents: readonly string[];
  readonly time: number;
  readonly subject: string;
}

/**
 * One first-parent line (from a start commit down to the root), built as far as needed. For each
 * built position it keeps the smallest committer time so far (for a binary search of "the first
 * commit not after t") and the positions of foxtrot evidence: merges whose subject merges the
 * branch in, and merges that are pull-request heads (see computeCutoff).
 */
class Line {
  readonly shas: string[] = [];
  private readonly prefixMin: number[] = [];
  readonly byMessage: number[] = [];
  readonly byPullHead: number[] = [];
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
    if (node.parents.length >= 2) {
      if (mergesBranchIn(node.subject, this.history.branch)) this.byMessage.push(i);
      else if (this.history.isPullHeadFoxtrot(node)) this.byPullHead.push(i);
    }
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

  buildAll(): void {
    while (this.extendOne());
  }
}

/**
 * Everything the cutoff and the ancestry checks need about one branch, read once: every commit
 * reachable from its tip (one `rev-list` process: sha, parents, committer time, subject) and the
 * refs/pull/ tips (one `for-each-ref`). Then any number of cutoffs and ancestry questions are
 * answered in memory, with the same answers as computeCutoff and `merge-base --is-ancestor`
 * (the reference implementations, kept in history.ts; tests check that both agree).
 */
export class BranchHistory {
  private readonly nodes = new Map<string, Node>();
  private readonly pullHeads = new Set<string>();
  private readonly pullTips = new Map<string, string>();
  private readonly lines = new Map<string, Line>();
  /** For each commit: the largest position on the tip's first-parent line from which it is reachable. */
  private depth: Map<string, number> | null = null;
  private generation: Map<string, number> | null = null;

  private constructor(
    readonly gitDir: string,
    readonly branch: string,
    readonly tip: string,
  ) {}

  /** Reads the branch's history; a missing branch is a not-found error naming it. */
  static async load(gitDir: string, branch: string): Promise<BranchHistory> {
    const ref = `refs/heads/${branch}`;
    const tipOut = await runGit(gitDir, ['rev-parse', '--verify', '-q', `${ref}^{commit}`], { allowExit: [0, 1] });
    if (tipOut.exitCode !== 0) throw new MinerError('not-found', `${gitDir}: branch ${branch} not found`);
    const history = new BranchHistory(gitDir, branch, tipOut.stdout.trim());
    const [log, pulls] = await Promise.all([
      runGit(gitDir, ['rev-list', '--no-commit-header', '--format=%H%x00%P%x00%ct%x00%s', history.tip, '--']),
      runGit(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/pull/']),
    ]);
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
    for (const l of pulls.stdout.split('\n')) {
      if (!l) continue;
      const sp = l.indexOf(' ');
      const sha = l.slice(0, sp);
      history.pullHeads.add(sha);
      history.pullTips.set(l.slice(sp + 1).trim(), sha);
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

  /**
   * A merge that is the head of some pull request, is not a GitHub merge-button commit, and did
   * not merge the pull request its "(#N)" subject names (computeCutoff's pull-request-head evidence).
   */
  isPullHeadFoxtrot(node: Node): boolean {
    if (GITHUB_MERGE_BUTTON.test(node.subject) || !this.pullHeads.has(node.sha)) return false;
    const n = NAMED_PULL.exec(node.subject)?.[1];
    if (n !== undefined && node.parents.length > 1 && this.pullTips.get(`refs/pull/${Number(n)}/head`) === node.parents[1]) return false;
    return true;
  }

  private line(start: string): Line {
    let line = this.lines.get(start);
    if (!line) {
      line = new Line(this, start);
      this.lines.set(start, line);
    }
    return line;
  }

  /** The branch as it stood at `reportTime`: the same answer as computeCutoff(gitDir, branch, reportTime). */
  cutoff(reportTime: Date): Cutoff {
    const limit = Math.floor(reportTime.getTime() / 1000);
    if (Number.isNaN(limit)) throw new MinerError('validation', `report time ${String(reportTime)} is not a date`);
    const notes: string[] = [];
    let start = this.tip;
    let shown = `refs/heads/${this.branch}`;
    for (;;) {
      const line = this.line(start);
      const at = line.firstNotAfter(limit);
      const m = line.byMessage[0] ?? Infinity;
      const p = line.byPullHead[0] ?? Infinity;
      let hit: { index: number; evidence: FoxtrotEvidence } | null = null;
      if (p < at && p < m) hit = { index: p, evidence: 'pull-request-head' };
      else if (m < at) hit = { index: m, evidence: 'merge-message' };
      if (hit === null) {
        if (at >= line.shas.length) {
          return { sha: null, rule: 'no-commit-before-report', notes: [...notes, `no commit on the line from ${shown} at or before ${reportTime.toISOString()}`] };
        }
        return { sha: line.shas[at]!, rule: notes.length > 0 ? 'foxtrot-corrected' : 'first-parent-by-date', notes };
      }
      const merge = this.nodes.get(line.shas[hit.index]!)!;
      notes.push(`foxtrot merge ${merge.sha} (${hit.evidence}: ${JSON.stringify(merge.subject)}): followed second parent ${merge.parents[1]}`);
      start = merge.parents[1]!;
      shown = start;
    }
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

  /**
   * `git rev-list --count base..tip` in memory: commits reachable from `tip` but not from `base`,
   * when `base` lies on the branch's first-parent line and `tip` is reachable from the branch;
   * null otherwise (ask git).
   */
  countBetween(base: string, tip: string): number | null {
    if (!this.nodes.has(base) || !this.nodes.has(tip)) return null;
    const depth = this.ensureDepth();
    const main = this.line(this.tip);
    const ib = depth.get(base)!;
    if (main.shas[ib] !== base) return null;
    // x is reachable from base exactly when its deepest line position is at or below base's.
    const seen = new Set<string>();
    const stack = [tip];
    while (stack.length > 0) {
      const sha = stack.pop()!;
      if (seen.has(sha) || depth.get(sha)! >= ib) continue;
      seen.add(sha);
      for (const parent of this.nodes.get(sha)!.parents) if (!seen.has(parent)) stack.push(parent);
    }
    return seen.size;
  }
}
