/**
 * Tier of a candidate pair, from the two PRs' code files and the import links between them.
 * `coupled`: the code files overlap, or one side's code imports a file the other side changes,
 * or both change non-test Go files of one package (one directory shares identifiers).
 * `control`: code files and their directories are disjoint (the zero point).
 * `unrelated`: neither (same directory, different files, no link found) — not an instance.
 */
import { posix } from 'node:path';
import type { ImportLink } from '../util/source-imports.js';

export type PairTier = 'coupled' | 'control' | 'unrelated';
export type TierBasis = 'file-overlap' | 'import' | 'go-package' | 'disjoint' | 'shared-directory';

export interface TierDecision {
  readonly tier: PairTier;
  readonly basis: TierBasis;
  /** Shared files, linking imports, or shared directories, depending on the basis. */
  readonly evidence: readonly string[];
}

const sortUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

export function classifyTier(aCode: readonly string[], bCode: readonly string[], links: readonly ImportLink[]): TierDecision {
  const bSet = new Set(bCode);
  const shared = sortUnique(aCode.filter((f) => bSet.has(f)));
  if (shared.length > 0) return { tier: 'coupled', basis: 'file-overlap', evidence: shared };
  if (links.length > 0) {
    return { tier: 'coupled', basis: 'import', evidence: sortUnique(links.map((l) => `${l.from} -> ${l.to} (${l.spec})`)) };
  }
  const goDirs = (files: readonly string[]): Set<string> =>
    new Set(files.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')).map((f) => posix.dirname(f)));
  const bGo = goDirs(bCode);
  const goShared = sortUnique([...goDirs(aCode)].filter((d) => bGo.has(d)));
  if (goShared.length > 0) return { tier: 'coupled', basis: 'go-package', evidence: goShared };
  const bDirs = new Set(bCode.map((f) => posix.dirname(f)));
  const sharedDirs = sortUnique(aCode.map((f) => posix.dirname(f)).filter((d) => bDirs.has(d)));
  if (sharedDirs.length > 0) return { tier: 'unrelated', basis: 'shared-directory', evidence: sharedDirs };
  return { tier: 'control', basis: 'disjoint', evidence: [] };
}
