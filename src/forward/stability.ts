/**
 * Gold stability: the gold recomputed under plausible alternative change scopes. A request that
 * several reasonable implementations would route differently is not pinned down by its issue.
 * Pure: routing is passed in as a function.
 */
import type { AlternativeKind, Stability, StabilityDetail } from '../model/forward.js';
import { posix } from 'node:path';
import { isSharedPath } from './imports.js';
import { isSourcePath, isTestPath, testPathFor } from './test-layout.js';

export interface Alternative {
  readonly kind: AlternativeKind;
  /** What was changed, e.g. `drop src/a.ts`. */
  readonly description: string;
  /** The alternative changed-path set, in git path order. */
  readonly paths: readonly string[];
}

/**
 * A case is `scope-ambiguous` when MORE than this fraction of its alternatives change the gold.
 * A quarter leaves room for the one alternative in four that any change has (dropping the only
 * file a path-filtered workflow watches) while catching requests whose workflow set depends on
 * where the change lands.
 */
export const SCOPE_AMBIGUITY_THRESHOLD = 0.25;

export interface ScopeInputs {
  /** Δ*, in git path order. */
  readonly changed: readonly string[];
  /** Tracked paths at base. */
  readonly tree: readonly string[];
  /** For changed files present at base: the tracked files they import (see imports.ts). */
  readonly imports: ReadonlyMap<string, readonly string[]>;
}

/** Byte-order sort (git's path order for ASCII paths). */
export function gitOrder(paths: Iterable<string>): string[] {
  return [...new Set(paths)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The alternative scopes of a change: drop each path (only when more than one remains); add the
 * test file the repository's layout puts next to each changed source file; move each change to
 * a sibling file of the same directory; add a file of a shared/library directory that the
 * changed files import. Alternatives equal to Δ* or to each other are dropped.
 */
export function alternativeScopes(input: ScopeInputs): Alternative[] {
  const changed = gitOrder(input.changed);
  const inChange = new Set(changed);
  const out: Alternative[] = [];
  const seen = new Set<string>([changed.join('\n')]);
  const push = (kind: AlternativeKind, description: string, paths: Iterable<string>): void => {
    const sorted = gitOrder(paths);
    const key = sorted.join('\n');
    if (sorted.length === 0 || seen.has(key)) return;
    seen.add(key);
    out.push({ kind, description, paths: sorted });
  };
  if (changed.length > 1) {
    for (const p of changed) push('drop-path', `drop ${p}`, changed.filter((q) => q !== p));
  }
  const hasTestFor = (src: string): boolean => changed.some((p) => isTestPath(p) && posix.basename(p).includes(posix.basename(src).replace(/\.[^.]+$/, '')));
  for (const p of changed) {
    if (!isSourcePath(p) || hasTestFor(p)) continue;
    const test = testPathFor(p, input.tree);
    if (!inChange.has(test)) push('add-test', `add ${test}`, [...changed, test]);
  }
  const byDir = new Map<string, string[]>();
  for (const t of input.tree) {
    const d = posix.dirname(t);
    (byDir.get(d) ?? byDir.set(d, []).get(d)!).push(t);
  }
  for (const p of changed) {
    const siblings = gitOrder((byDir.get(posix.dirname(p)) ?? []).filter((s) => !inChange.has(s) && isTestPath(s) === isTestPath(p)));
    const sameExt = siblings.filter((s) => posix.extname(s) === posix.extname(p));
    const sibling = sameExt[0] ?? siblings[0];
    if (sibling) push('move-to-sibling', `move ${p} to ${sibling}`, [...changed.filter((q) => q !== p), sibling]);
  }
  const sharedDirs = new Set<string>();
  for (const p of changed) {
    for (const target of input.imports.get(p) ?? []) {
      const d = posix.dirname(target);
      if (inChange.has(target) || d === posix.dirname(p) || !isSharedPath(target) || sharedDirs.has(d)) continue;
      sharedDirs.add(d);
      push('add-shared', `add ${target} (imported by ${p})`, [...changed, target]);
    }
  }
  return out;
}

/** Routes every alternative and compares it with the gold. */
export function measureStability(
  gold: readonly string[],
  alternatives: readonly Alternative[],
  activatedFor: (paths: readonly string[]) => readonly string[],
  threshold = SCOPE_AMBIGUITY_THRESHOLD,
): Stability {
  const goldSet = new Set(gold);
  const flips = new Map<string, number>();
  const details: StabilityDetail[] = [];
  for (const alt of alternatives) {
    const got = new Set(activatedFor(alt.paths));
    const added = [...got].filter((w) => !goldSet.has(w)).sort();
    const removed = [...goldSet].filter((w) => !got.has(w)).sort();
    if (added.length === 0 && removed.length === 0) continue;
    for (const w of [...added, ...removed]) flips.set(w, (flips.get(w) ?? 0) + 1);
    details.push({ kind: alt.kind, description: alt.description, added, removed });
  }
  const fraction = alternatives.length === 0 ? 0 : details.length / alternatives.length;
  return {
    alternatives: alternatives.length,
    changed: details.length,
    fraction,
    threshold,
    unstable: fraction > threshold,
    flips: [...flips.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([workflow, count]) => ({ workflow, count })),
    details,
  };
}
