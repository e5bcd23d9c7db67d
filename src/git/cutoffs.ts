import { BranchHistory } from './branch-history.js';
import { isAncestor, type Cutoff } from './history.js';

/**
 * Many cutoffs of one branch at once, with the same answers as computeCutoff (the per-case
 * reference): the branch's history is read once (two git processes in all) and every report time,
 * foxtrot merges included, is answered in memory.
 */
export async function computeCutoffs(gitDir: string, branch: string, reportTimes: readonly Date[]): Promise<Cutoff[]> {
  const history = await BranchHistory.load(gitDir, branch);
  return reportTimes.map((t) => history.cutoff(t));
}

/**
 * isAncestor for many pairs: answered in memory for every `b` reachable from the branch tip
 * (commits off the branch are asked of git).
 */
export async function areAncestors(gitDir: string, branch: string, pairs: readonly { a: string; b: string }[], history?: BranchHistory): Promise<boolean[]> {
  const h = history ?? (await BranchHistory.load(gitDir, branch));
  const out: boolean[] = [];
  for (const { a, b } of pairs) out.push(h.isAncestor(a, b) ?? (await isAncestor(gitDir, a, b)));
  return out;
}
