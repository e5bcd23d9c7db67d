/**
 * Forward paired states: for a case (S_t, Δ*, E), the nearest earlier state S_t' of the base
 * branch's first-parent line where the same Δ* under the same E gives a different gold, and at
 * least one workflow present in both states flips. The pair asks whether an answer follows the
 * workflows of the state it is given, or only the change.
 *
 * The walk reads commits and trees through one long-lived `cat-file` reader per repository
 * (never a process per commit) and routes only where the `.github/workflows` tree changes: the
 * gold of a state depends on nothing else. Workflows are compiled once per distinct tree.
 */
import type { BatchObjects } from '../git/batch.js';
import { parseCommit, type CommitInfo } from '../git/batch.js';
import { compareBytes } from '../git/workflows.js';
import { compileWorkflows, EVALUATOR_ID, type CompiledWorkflows } from '../routing/index.js';
import type { RouteContext } from '../model/forward.js';

/** Default number of first-parent commits searched below the base. */
export const DEFAULT_PAIR_BOUND = 500;

export interface PairQuery {
  readonly caseId: string;
  readonly repo: string;
  readonly base: string;
  readonly changedPaths: readonly string[];
  readonly context: RouteContext;
  /** The recorded gold; the walk recomputes it at the base and refuses a case where they differ. */
  readonly gold: readonly string[];
}

export type PairOutcome =
  | {
      readonly status: 'paired';
      readonly pairedSha: string;
      /** First-parent steps from the base to the paired state. */
      readonly distance: number;
      readonly pairedGold: string[];
      /** Workflows present in both states whose activation differs, sorted. */
      readonly flipped: string[];
    }
  | { readonly status: 'no-pair'; readonly searched: number; readonly why: string }
  | { readonly status: 'error'; readonly why: string };

interface TreeEntry {
  readonly mode: string;
  readonly name: string;
  readonly oid: string;
}

/** Parses a raw git tree object: `<mode> <name>\0<binary id>` repeated. */
export function parseTree(raw: Buffer, idBytes: number): TreeEntry[] {
  const out: TreeEntry[] = [];
  let pos = 0;
  while (pos < raw.length) {
    const sp = raw.indexOf(0x20, pos);
    const nul = raw.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 1 + idBytes > raw.length) throw new Error('truncated tree object');
    out.push({
      mode: raw.toString('latin1', pos, sp),
      name: raw.toString('utf8', sp + 1, nul),
      oid: raw.toString('hex', nul + 1, nul + 1 + idBytes),
    });
    pos = nul + 1 + idBytes;
  }
  return out;
}

const WORKFLOWS = ['.github', 'workflows'] as const;

/**
 * Searches the paired state of many cases of one repository. Commits, trees, blobs and compiled
 * workflows are cached across cases, so cases sharing history share the work.
 */
export class PairedStateSearch {
  private readonly commits = new Map<string, CommitInfo | null>();
  private readonly trees = new Map<string, TreeEntry[] | null>();
  private readonly compiled = new Map<string, CompiledWorkflows>();
  /** Workflow file paths of each workflows tree (the files the evaluator is given). */
  private readonly filesOf = new Map<string, string[]>();
  commitsRead = 0;
  statesRouted = 0;

  constructor(
    private readonly objects: BatchObjects,
    private readonly bound: number = DEFAULT_PAIR_BOUND,
  ) {
    if (!Number.isInteger(bound) || bound < 1) throw new RangeError(`pair search bound must be a positive integer, got ${bound}`);
  }

  private async commit(sha: string): Promise<CommitInfo | null> {
    if (this.commits.has(sha)) return this.commits.get(sha)!;
    const [a] = await this.objects.objects([sha]);
    const info = a && a.kind === 'object' && a.type === 'commit' && a.content ? parseCommit(a.sha!, a.content.toString('utf8')) : null;
    this.commits.set(sha, info);
    this.commitsRead += 1;
    return info;
  }

  private async tree(oid: string): Promise<TreeEntry[] | null> {
    if (this.trees.has(oid)) return this.trees.get(oid)!;
    const [a] = await this.objects.objects([oid]);
    const entries = a && a.kind === 'object' && a.type === 'tree' && a.content ? parseTree(a.content, oid.length / 2) : null;
    this.trees.set(oid, entries);
    return entries;
  }

  /** The oid of `.github/workflows` in a root tree, or '' when there is none. */
  private async workflowsTree(rootTree: string): Promise<string> {
    let oid = rootTree;
    for (const step of WORKFLOWS) {
      const entries = await this.tree(oid);
      const e = entries?.find((x) => x.name === step && x.mode === '40000');
      if (!e) return '';
      oid = e.oid;
    }
    return oid;
  }

  /** Every blob under the workflows tree (subdirectories included; the evaluator decides what counts). */
  private async compile(wfTree: string): Promise<CompiledWorkflows> {
    const hit = this.compiled.get(wfTree);
    if (hit) return hit;
    const blobs: { path: string; oid: string }[] = [];
    const walk = async (oid: string, prefix: string): Promise<void> => {
      for (const e of (await this.tree(oid)) ?? []) {
        if (e.mode === '40000') await walk(e.oid, `${prefix}${e.name}/`);
        else if (e.mode === '100644' || e.mode === '100755') blobs.push({ path: `${prefix}${e.name}`, oid: e.oid });
      }
    };
    if (wfTree !== '') await walk(wfTree, '.github/workflows/');
    const answers = await this.objects.objects(blobs.map((b) => b.oid));
    const files = blobs
      .map((b, i) => ({ path: b.path, text: answers[i]!.content?.toString('utf8') ?? '' }))
      .sort((x, y) => compareBytes(x.path, y.path));
    const c = compileWorkflows(files);
    this.compiled.set(wfTree, c);
    this.filesOf.set(wfTree, files.map((f) => f.path));
    return c;
  }

  private async goldAt(wfTree: string, q: PairQuery): Promise<string[]> {
    this.statesRouted += 1;
    return [...(await this.compile(wfTree)).activatedFor(q.changedPaths, q.context)].sort(compareBytes);
  }

  async search(q: PairQuery): Promise<PairOutcome> {
    const base = await this.commit(q.base);
    if (!base) return { status: 'error', why: `base ${q.base} is not a commit of the mirror` };
    const baseWf = await this.workflowsTree(base.tree);
    const gold = await this.goldAt(baseWf, q);
    const recorded = [...q.gold].sort(compareBytes);
    if (gold.join('\n') !== recorded.join('\n')) {
      return { status: 'error', why: `gold at base recomputes as [${gold.join(', ')}], the record says [${recorded.join(', ')}] (evaluator ${EVALUATOR_ID})` };
    }
    const goldSet = new Set(gold);
    const baseFiles = new Set(this.filesOf.get(baseWf));
    let current = base;
    let lastWf = baseWf;
    for (let k = 1; k <= this.bound; k++) {
      const parent = current.parents[0];
      if (!parent) return { status: 'no-pair', searched: k - 1, why: 'reached the root of the history' };
      const info = await this.commit(parent);
      if (!info) return { status: 'no-pair', searched: k - 1, why: `commit ${parent} is missing from the mirror` };
      current = info;
      const wf = await this.workflowsTree(info.tree);
      if (wf === lastWf) continue;
      lastWf = wf;
      const other = await this.goldAt(wf, q);
      if (other.join('\n') === gold.join('\n')) continue;
      const otherSet = new Set(other);
      const flipped = (this.filesOf.get(wf) ?? []).filter((p) => baseFiles.has(p) && goldSet.has(p) !== otherSet.has(p));
      if (flipped.length === 0) continue;
      return { status: 'paired', pairedSha: info.sha, distance: k, pairedGold: other, flipped };
    }
    return { status: 'no-pair', searched: this.bound, why: `no state within ${this.bound} first-parent commits below the base flips a shared workflow` };
  }
}

/** The case id of a case's paired state (its predictions and package use it). */
export function pairedCaseId(caseId: string): string {
  return `${caseId}__paired`;
}
