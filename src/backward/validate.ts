/**
 * The structural checks of a Backward gold, decided from facts the repository gave (read by
 * readCheckFacts in git/checks.ts; no git here).
 */
import type { Reason } from '../model/backward.js';

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

/** What is checked: the gold, the cutoff it must lie below, the branch it must be on, the report it must predate. */
export interface CheckInput {
  readonly gold: string;
  readonly cutoff: string | null;
  readonly defaultBranch: string;
  readonly reportTime: Date;
}

/** What the repository says about a gold. A fact that cannot matter (an earlier one already failed) may be left out. */
export interface CheckFacts {
  /** The type of the object named by gold; null when there is no such object (or gold is not a full SHA). */
  readonly objectType: string | null;
  /** The gold commit; null when gold is not a commit. */
  readonly commit: { readonly parents: readonly string[]; readonly committerTime: number } | null;
  /** The first parent when it is a commit (its time, and whether it is an ancestor of gold); null when missing. */
  readonly parent: { readonly committerTime: number; readonly ancestorOfGold: boolean } | null;
  /** Whether gold is an ancestor of the cutoff; null without a cutoff. */
  readonly belowCutoff: boolean | null;
  /** The default branch's tip and whether gold is reachable from it; null when the branch is missing. */
  readonly branchTip: { readonly sha: string; readonly reachable: boolean } | null;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/** True when `gold` is a full lowercase SHA (the only form the other checks are asked about). */
export function isFullSha(gold: string): boolean {
  return FULL_SHA.test(gold);
}

/**
 * The eight checks, always all of them, in CHECK_NAMES order. A check that cannot run because an
 * earlier one failed fails with evidence saying so.
 */
export function decideChecks(input: CheckInput, facts: CheckFacts): CheckResult[] {
  const { gold, cutoff, defaultBranch, reportTime } = input;
  const out: CheckResult[] = [];
  const add = (name: CheckName, pass: boolean, evidence: string): void => void out.push({ name, pass, evidence });
  const fullSha = isFullSha(gold);
  add('full-sha', fullSha, fullSha ? `${gold} is 40 lowercase hex` : `${JSON.stringify(gold)} is not 40 lowercase hex`);

  const type = fullSha ? facts.objectType : null;
  if (fullSha) add('exists', type !== null, type !== null ? `object ${gold} found (${type})` : `object ${gold} not in the repository`);
  else add('exists', false, 'not checked: not a full SHA');

  const commit = type === 'commit' ? facts.commit : null;
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
    const p = facts.parent;
    if (!p) add('parent-consistent', false, `parent ${parent} is missing or not a commit`);
    else {
      const older = p.committerTime <= commit.committerTime;
      add('parent-consistent', p.ancestorOfGold, `parent ${parent} exists, ${p.ancestorOfGold ? 'is' : 'is not'} an ancestor of gold${older ? '' : ' (parent committer time is after gold; clock skew)'}`);
    }
  }

  if (cutoff === null) add('ancestor-of-cutoff', false, 'no cutoff: no commit of the default branch at report time');
  else {
    const anc = facts.belowCutoff === true;
    add('ancestor-of-cutoff', anc, `${gold} ${anc ? 'is' : 'is not'} an ancestor of cutoff ${cutoff}`);
  }

  const ref = `refs/heads/${defaultBranch}`;
  const tip = facts.branchTip;
  if (!tip) add('on-default-branch', false, `${ref} not found`);
  else add('on-default-branch', tip.reachable, `${tip.reachable ? 'reachable' : 'not reachable'} from ${ref} (${tip.sha})`);

  const reportSec = Math.floor(reportTime.getTime() / 1000);
  const t = commit.committerTime;
  add('temporal', t <= reportSec, `gold committed ${iso(t)} ${t <= reportSec ? 'at or before' : 'after'} report ${reportTime.toISOString()}`);
  return out;
}

function iso(sec: number): string {
  return new Date(sec * 1000).toISOString();
}

/** One `structural-check-failed` reason per failing check, the check's name and evidence quoted. */
export function checkReasons(checks: readonly { name: string; pass: boolean; evidence: string }[]): Reason[] {
  return checks.filter((c) => !c.pass).map((c) => ({ code: 'structural-check-failed', evidence: `${c.name}: ${c.evidence}` }));
}
