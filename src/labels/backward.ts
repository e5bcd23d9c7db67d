/**
 * The Backward labels that read the visible history (the baselines' index of the repository).
 */
import type { RepoHistory } from '../baselines/history.js';
import { backwardLocality, backwardStaging, type ComponentMap, type Label, type Locality, type Staging } from './rules.js';

export function backwardLabels(
  history: RepoHistory,
  input: { cutoff: string; gold: string; report: string },
  components?: ComponentMap,
): { locality: Label<Locality> | null; staging: Label<Staging> | null } {
  const goldIdx = history.indexOf(input.gold);
  const visible = history.visibleFrom(input.cutoff);
  const beforeGold = history.visibleFrom(input.gold);
  if (goldIdx === undefined || !visible || !beforeGold) return { locality: null, staging: null };
  const goldPaths = history.commits[goldIdx]!.paths;
  const known = new Set<string>();
  const between: { sha: string; subject: string; paths: readonly string[] }[] = [];
  for (let i = 0; i < visible.length; i += 1) {
    if (visible[i] !== 1) continue;
    const c = history.commits[i]!;
    for (const p of c.paths) known.add(p);
    if (beforeGold[i] !== 1) between.push(c);
  }
  return {
    locality: backwardLocality({ report: input.report, knownPaths: [...known].sort(), goldPaths, components }),
    staging: backwardStaging({ goldPaths, between }),
  };
}
