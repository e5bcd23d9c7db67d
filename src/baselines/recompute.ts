/**
 * `r2v baselines --manifest M`: recomputes every case's baselines from the git objects (the
 * visible-history index built once per repository, the repository prior at each Forward base)
 * and compares them with what the manifest records.
 */
import { listTree } from '../git/forward.js';
import { readWorkflowFiles } from '../git/workflows.js';
import { forwardContext } from '../model/forward.js';
import { compiledRouter } from '../forward/router.js';
import { repositoryPrior } from '../forward/prior.js';
import { readManifest } from '../export/read-manifest.js';
import type { MirrorOf } from '../export/mirrors.js';
import { canonicalJson } from '../util/canonical.js';
import { backwardBaselines, baselineAccuracy, forwardBaselines } from './index.js';
import { RepoHistory } from './history.js';

export interface RecomputedCase {
  readonly caseId: string;
  readonly baselines: unknown;
  /** True when the manifest records exactly these baselines. */
  readonly same: boolean;
}

export interface RecomputeReport {
  readonly cases: RecomputedCase[];
  readonly accuracy: Map<string, [number, number]>;
  readonly differences: number;
}

export async function recomputeBaselines(path: string, mirrorOf: MirrorOf): Promise<RecomputeReport> {
  const histories = new Map<string, RepoHistory>();
  const cases: RecomputedCase[] = [];
  for await (const r of readManifest(path)) {
    const gitDir = mirrorOf(r.repo);
    let baselines: unknown;
    if (r.task === 'backward') {
      let history = histories.get(gitDir);
      if (!history) {
        history = new RepoHistory(gitDir);
        histories.set(gitDir, history);
      }
      await history.ensure(r.cutoff);
      baselines = backwardBaselines(history, { cutoff: r.cutoff, gold: r.gold, report: r.report });
    } else {
      const tree = await listTree(gitDir, r.base);
      const activatedFor = compiledRouter(await readWorkflowFiles(gitDir, r.base), forwardContext(r.context.base_branch, r.context.action));
      baselines = forwardBaselines(repositoryPrior(tree, activatedFor), r.gold);
    }
    const recorded = (r as { baselines?: unknown }).baselines ?? null;
    cases.push({ caseId: r.case_id, baselines, same: canonicalJson(recorded) === canonicalJson(baselines) });
  }
  return {
    cases,
    accuracy: baselineAccuracy(cases.map((c) => ({ baselines: c.baselines }))),
    differences: cases.filter((c) => !c.same).length,
  };
}
