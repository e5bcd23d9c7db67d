/**
 * Shared history for the Backward packages of one repository. The default branch's first-parent
 * line is cut into layers of LAYER_COMMITS commits counted from its root; layer j is one pack of
 * the objects of boundary b_j not reachable from b_(j-1). A package whose cutoff descends from
 * b_1 … b_J gets hard links to those J layer packs plus one pack of its own (`cutoff ^b_J`), so
 * every object it holds is reachable from its cutoff (the boundaries are its ancestors) and
 * nothing from after it is present, while the packages of one repository share the layers on
 * disk. Layers depend only on the history, never on which cases are packaged or in which order,
 * so they are built once and kept under `<out>/.objects/` (the audit skips dot directories).
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/runner.js';

/** First-parent commits per shared layer. */
export const LAYER_COMMITS = 1024;

/** Where the layer packs of a package set live. */
export const OBJECTS_DIR = '.objects';

/** The first-parent line of a branch, root first, memoised per mirror, branch and tip. */
const lines = new Map<string, readonly string[]>();

async function firstParentLine(mirror: string, branch: string): Promise<{ line: readonly string[]; index: Map<string, number> } | null> {
  const tip = await runGit(mirror, ['rev-parse', '--verify', '-q', `refs/heads/${branch}^{commit}`], { allowExit: [1, 128] });
  if (tip.exitCode !== 0) return null;
  const key = `${mirror}\0${branch}\0${tip.stdout.trim()}`;
  let line = lines.get(key);
  if (!line) {
    line = (await runGit(mirror, ['rev-list', '--first-parent', '--reverse', tip.stdout.trim(), '--'])).stdout.split('\n').filter((l) => l.length > 0);
    lines.clear();
    lines.set(key, line);
  }
  const index = indexes.get(line) ?? new Map(line.map((sha, i) => [sha, i]));
  indexes.set(line, index);
  return { line, index };
}
const indexes = new WeakMap<readonly string[], Map<string, number>>();

async function isAncestor(mirror: string, a: string, b: string): Promise<boolean> {
  return (await runGit(mirror, ['merge-base', '--is-ancestor', a, b], { allowExit: [1, 128] })).exitCode === 0;
}

/** The boundaries b_1 … b_J (oldest first) that are ancestors of `cutoff`. */
export async function boundariesBelow(mirror: string, branch: string | null, cutoff: string, layerCommits = LAYER_COMMITS): Promise<string[]> {
  if (!branch) return [];
  const fp = await firstParentLine(mirror, branch);
  if (!fp) return [];
  const all: string[] = [];
  for (let i = layerCommits - 1; i < fp.line.length; i += layerCommits) all.push(fp.line[i]!);
  const pos = fp.index.get(cutoff);
  if (pos !== undefined) return all.slice(0, Math.floor((pos + 1) / layerCommits));
  // Off the line (an old default branch, a foxtrot merge): the boundaries are nested, so the
  // ancestors among them are a prefix; find its end by bisection.
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (await isAncestor(mirror, all[mid]!, cutoff)) lo = mid + 1;
    else hi = mid;
  }
  return all.slice(0, lo);
}

/** Packs the objects of `tip` minus those reachable from `not` from `mirror` into `dir` (created). */
async function packInto(mirror: string, dir: string, tip: string, not: string | null): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await runGit(mirror, ['pack-objects', '--revs', '-q', join(dir, 'pack')], { input: `${tip}\n${not ? `^${not}\n` : ''}` });
}

/** The directory of layer `from..to`, built when missing (under a temporary name, renamed when complete). */
async function layer(mirror: string, store: string, from: string | null, to: string): Promise<string> {
  const dir = join(store, `${from ?? 'root'}..${to}`);
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await packInto(mirror, tmp, to, from);
    try {
      renameSync(tmp, dir);
    } catch (error) {
      if (!existsSync(dir)) throw error; // built meanwhile by another packaging of the same set
      rmSync(tmp, { recursive: true, force: true });
    }
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** Hard-links (or copies, across file systems) every pack file of `from` into `to`. */
function linkPacks(from: string, to: string): void {
  for (const name of readdirSync(from)) {
    if (!/^pack-[0-9a-f]{40,64}\.(?:pack|idx|rev)$/.test(name)) continue;
    const dest = join(to, name);
    if (existsSync(dest)) continue;
    try {
      linkSync(join(from, name), dest);
    } catch {
      copyFileSync(join(from, name), dest);
    }
  }
}

/**
 * Fills `gitDir/objects/pack` with exactly the history of `cutoff`: the shared layers below it
 * (from `store`, built as needed) and a pack of the rest. With `store` null, one pack of the
 * whole history (no sharing).
 */
export async function packHistory(
  mirror: string,
  gitDir: string,
  cutoff: string,
  branch: string | null,
  store: string | null,
  layerCommits = LAYER_COMMITS,
): Promise<void> {
  const packDir = join(gitDir, 'objects', 'pack');
  if (store === null) {
    await packInto(mirror, packDir, cutoff, null);
    return;
  }
  const bounds = await boundariesBelow(mirror, branch, cutoff, layerCommits);
  let prev: string | null = null;
  for (const b of bounds) {
    linkPacks(await layer(mirror, store, prev, b), packDir);
    prev = b;
  }
  if (prev !== cutoff) await packInto(mirror, packDir, cutoff, prev);
}
