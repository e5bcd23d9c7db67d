import { isFullSha, type CheckFacts, type CheckInput } from '../backward/validate.js';
import type { BatchObjects } from './batch.js';
import { isAncestor } from './history.js';

/**
 * What the structural checks need to know about a gold (CheckFacts), read from the repository:
 * the object's type, the commit and its first parent, and three ancestry questions. Facts an
 * earlier failure makes moot are not read.
 */
export async function readCheckFacts(
  h: { gitDir: string; objects: BatchObjects },
  input: CheckInput,
  /** Ancestry oracle; default: one `merge-base --is-ancestor` per question (the reference). */
  ancestor: (a: string, b: string) => Promise<boolean> = (a, b) => isAncestor(h.gitDir, a, b),
): Promise<CheckFacts> {
  const { gold, cutoff, defaultBranch } = input;
  const none: CheckFacts = { objectType: null, commit: null, parent: null, belowCutoff: null, branchTip: null };
  if (!isFullSha(gold)) return none;
  const [info] = await h.objects.info([gold]);
  const objectType = info?.kind === 'object' ? info.type : null;
  const commit = objectType === 'commit' ? await h.objects.commit(gold) : null;
  if (!commit) return { ...none, objectType };
  const parentSha = commit.parents[0];
  const parentCommit = parentSha === undefined ? null : await h.objects.commit(parentSha);
  const parent = parentCommit ? { committerTime: parentCommit.committerTime, ancestorOfGold: await ancestor(parentSha!, gold) } : null;
  const belowCutoff = cutoff === null ? null : await ancestor(gold, cutoff);
  const [tip] = await h.objects.info([`refs/heads/${defaultBranch}`]);
  const branchTip = tip && tip.kind === 'object' ? { sha: tip.sha!, reachable: await ancestor(gold, tip.sha!) } : null;
  return { objectType, commit: { parents: commit.parents, committerTime: commit.committerTime }, parent, belowCutoff, branchTip };
}
