import { computeCutoff, isAncestor, listFirstParent, mergesBranchIn, type Cutoff } from './history.js';

const GITHUB_MERGE_BUTTON = /^Merge pull request #\d+ from /;

/**
 * Many cutoffs of one branch at once, with the same answers as computeCutoff: the first-parent
 * line is read once, and each report time is looked up in memory. Cases whose walk meets a merge
 * that might be a pull-request head (the one piece of evidence that needs the refs) are handed
 * to computeCutoff.
 */
export async function computeCutoffs(gitDir: string, branch: string, reportTimes: readonly Date[]): Promise<Cutoff[]> {
  const line = await listFirstParent(gitDir, [`refs/heads/${branch}`]);
  const out: Cutoff[] = [];
  for (const t of reportTimes) {
    const limit = Math.floor(t.getTime() / 1000);
    let at = 0;
    let foxtrot = false;
    let unsure = false;
    for (; at < line.length && line[at]!.time > limit; at++) {
      const c = line[at]!;
      if (c.parents.length < 2) continue;
      if (mergesBranchIn(c.subject, branch)) foxtrot = true;
      else if (!GITHUB_MERGE_BUTTON.test(c.subject)) unsure = true;
    }
    if (foxtrot || unsure || at === line.length) out.push(await computeCutoff(gitDir, branch, t));
    else out.push({ sha: line[at]!.sha, rule: 'first-parent-by-date', notes: [] });
  }
  return out;
}

/**
 * isAncestor for many pairs: answered in memory when `a` lies below `b` on b's first-parent line
 * of `branch`, otherwise by git.
 */
export async function areAncestors(gitDir: string, branch: string, pairs: readonly { a: string; b: string }[]): Promise<boolean[]> {
  const line = await listFirstParent(gitDir, [`refs/heads/${branch}`]);
  const index = new Map(line.map((c, i) => [c.sha, i]));
  const out: boolean[] = [];
  for (const { a, b } of pairs) {
    const ia = index.get(a);
    const ib = index.get(b);
    // On one first-parent line, the older commit is the ancestor and the newer one is not.
    if (ia !== undefined && ib !== undefined) out.push(ia >= ib);
    else out.push(await isAncestor(gitDir, a, b));
  }
  return out;
}
