import type { BatchObjects, CommitInfo } from './batch.js';
import type { BranchHistory } from './branch-history.js';
import { isAncestor } from './history.js';

export type CheckName =
  | 'full-sha'
  | 'exists'
  | 'is-commit'
  | 'non-merge'
  | 'parent-consistent'
  | 'ancestor-of-cutoff'
  | 'on-default-branch'
  | 'temporal';

export const CHECK_NAMES: readonly CheckName[] = [
  'full-sha',
  'exists',
  'is-commit',
  'non-merge',
  'parent-consistent',
  'ancestor-of-cutoff',
  'on-default-branch',
  'temporal',
];

export interface CheckResult {
  name: CheckName;
  pass: boolean;
  evidence: string;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * The structural checks of a Backward gold, always all eight, in CHECK_NAMES order. A check that
 * cannot run because an earlier one failed fails with evidence saying so.
 */
export async function structuralChecks(
  h: { gitDir: string; objects: BatchObjects },
  input: { gold: string; cutoff: string | null; defaultBranch: string; reportTime: Date },
  /** Ancestry oracle; default: one `merge-base --is-ancestor` per question (the reference). */
  ancestor: (a: string, b: string) => Promise<boolean> = (a, b) => isAncestor(h.gitDir, a, b),
): Promise<CheckResult[]> {
  const { gold, cutoff, defaultBranch, reportTime } = input;
  const out: CheckResult[] = [];
  const add = (name: CheckName, pass: boolean, evidence: string): void => void out.push({ name, pass, evidence });
  const fullSha = FULL_SHA.test(gold);
  add('full-sha', fullSha, fullSha ? `${gold} is 40 lowercase hex` : `${JSON.stringify(gold)} is not 40 lowercase hex`);

  let type: string | null = null;
  if (fullSha) {
    const [a] = await h.objects.info([gold]);
    type = a?.kind === 'object' ? a.type : null;
    add('exists', type !== null, type !== null ? `object ${gold} found (${type})` : `object ${gold} not in the repository`);
  } else add('exists', false, 'not checked: not a full SHA');

  const commit: CommitInfo | null = type === 'commit' ? await h.objects.commit(gold) : null;
  add('is-commit', commit !== null, type === null ? 'not checked: object not found' : `object type is ${type}`);

  if (!commit) {
    for (const name of CHECK_NAMES.slice(3)) add(name, false, 'not checked: gold is not a commit');
    return out;
  }
  const n = commit.parents.length;
  add('non-merge', n === 1, n === 1 ? `one parent ${commit.parents[0]}` : n === 0 ? 'root commit (no parent)' : `merge commit with ${n} parents: ${commit.parents.join(' ')}`);

  if (n === 0) add('parent-consistent', false, 'no parent');
  else {
    const parent = commit.parents[0]!;
    const p = await h.objects.commit(parent);
    if (!p) add('parent-consistent', false, `parent ${parent} is missing or not a commit`);
    else {
      const anc = await ancestor(parent, gold);
      const older = p.committerTime <= commit.committerTime;
      add('parent-consistent', anc, `parent ${parent} exists, ${anc ? 'is' : 'is not'} an ancestor of gold${older ? '' : ' (parent committer time is after gold; clock skew)'}`);
    }
  }

  if (cutoff === null) add('ancestor-of-cutoff', false, 'no cutoff: no commit of the default branch at report time');
  else {
    const anc = await ancestor(gold, cutoff);
    add('ancestor-of-cutoff', anc, `${gold} ${anc ? 'is' : 'is not'} an ancestor of cutoff ${cutoff}`);
  }

  const ref = `refs/heads/${defaultBranch}`;
  const [branchTip] = await h.objects.info([ref]);
  if (!branchTip || branchTip.kind !== 'object') add('on-default-branch', false, `${ref} not found`);
  else {
    const on = await ancestor(gold, branchTip.sha!);
    add('on-default-branch', on, `${on ? 'reachable' : 'not reachable'} from ${ref} (${branchTip.sha})`);
  }

  const reportSec = Math.floor(reportTime.getTime() / 1000);
  const t = commit.committerTime;
  add('temporal', t <= reportSec, `gold committed ${iso(t)} ${t <= reportSec ? 'at or before' : 'after'} report ${reportTime.toISOString()}`);
  return out;
}

function iso(sec: number): string {
  return new Date(sec * 1000).toISOString();
}

/**
 * structuralChecks with ancestry answered from a BranchHistory of the case's default branch read
 * once for all cases of a repository (no git process per case; pairs off the branch fall back to git).
 */
export function structuralChecksWith(
  history: BranchHistory,
  h: { gitDir: string; objects: BatchObjects },
  input: { gold: string; cutoff: string | null; defaultBranch: string; reportTime: Date },
): Promise<CheckResult[]> {
  return structuralChecks(h, input, (a, b) => history.ancestor(a, b));
}
