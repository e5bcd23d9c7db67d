/**
 * The repository prior and the case labels. Pure.
 */
import type { Labels, Prior } from '../model/forward.js';

/**
 * Routes every path as a one-path change and returns the most frequent workflow set. Ties go to
 * the set whose canonical key (sorted paths joined by newlines) sorts first, so the answer is
 * deterministic.
 */
export function repositoryPrior(tree: readonly string[], activatedFor: (paths: readonly string[]) => readonly string[]): Prior {
  const counts = new Map<string, { workflows: string[]; n: number }>();
  for (const path of tree) {
    const set = [...activatedFor([path])].sort();
    const key = set.join('\n');
    const c = counts.get(key);
    if (c) c.n += 1;
    else counts.set(key, { workflows: set, n: 1 });
  }
  let best: { key: string; workflows: string[]; n: number } | null = null;
  for (const [key, c] of counts) {
    if (!best || c.n > best.n || (c.n === best.n && key < best.key)) best = { key, ...c };
  }
  return { workflows: best?.workflows ?? [], count: best?.n ?? 0, paths: tree.length, sets: counts.size };
}

/**
 * Wraps a one-path router with a cache path → activated set (sets interned), so the priors of
 * many bases with the same workflows route each path once. The cache belongs to the caller.
 */
export function memoizeOnePath(
  activatedFor: (paths: readonly string[]) => readonly string[],
  cache: Map<string, readonly string[]>,
): (paths: readonly string[]) => readonly string[] {
  const interned = new Map<string, readonly string[]>();
  for (const v of cache.values()) interned.set(v.join('\n'), v);
  return (paths) => {
    if (paths.length !== 1) return activatedFor(paths);
    const hit = cache.get(paths[0]!);
    if (hit) return hit;
    const got = [...activatedFor(paths)].sort();
    const key = got.join('\n');
    const shared = interned.get(key) ?? got;
    interned.set(key, shared);
    cache.set(paths[0]!, shared);
    return shared;
  };
}

export function labelsOf(changed: readonly string[], workflowCount: number): Labels {
  const tops = [...new Set(changed.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')))].sort();
  return { scope: tops.length <= 1 ? 'local' : 'cross', top_level: tops, changed_paths: changed.length, workflows: workflowCount };
}

export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}
