/**
 * Shared history for the Backward packages of one repository. The default branch's first-parent
 * line is cut into layers of LAYER_COMMITS commits counted from its root; layer j holds the
 * commits of boundary b_j not reachable from b_(j-1): one pack of their objects and one part of
 * their history metadata (`history.jsonl`), described with the digest of every file by
 * `layer.json`. A package whose cutoff descends from b_1 … b_J gets hard links to those J layers
 * (packs under repo/.git/objects/pack, history parts as history/00000.jsonl …) plus a pack and a
 * history part of its own (`cutoff ^b_J`), so every object and commit line it holds is reachable
 * from its cutoff (the boundaries are its ancestors) and nothing from after it is present, while
 * the packages of one repository share the layers on disk. Layers depend only on the history,
 * never on which cases are packaged or in which order, so they are built once and kept under
 * `<out>/.objects/` (the audit skips dot directories). Shared files are read-only (git never
 * rewrites a pack; history parts are written 0444) and verified against layer.json before a
 * package links them, once per process and file state.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../errors.js';
import { runGit } from '../git/runner.js';
import { canonicalJson } from '../util/canonical.js';
import { writeHistoryMetadata } from './history-metadata.js';

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


/** A part of a package's history: its path in the package, its commit lines and their digest. */
export interface HistoryPart {
  readonly path: string;
  readonly commits: number;
  readonly sha256: string;
}

/** Where a package keeps its history parts. */
export const HISTORY_DIR = 'history';

/** The file name of part `i` (oldest first): 00000.jsonl, 00001.jsonl, … */
export const historyPartName = (i: number): string => `${String(i).padStart(5, '0')}.jsonl`;

/** A history part's file name in a package. */
export const HISTORY_PART = /^[0-9]{5}\.jsonl$/;

const LAYER_JSON = 'layer.json';
const LAYER_HISTORY = 'history.jsonl';
const PACK_FILE = /^pack-[0-9a-f]{40,64}\.(?:pack|idx|rev)$/;

interface LayerDescription {
  readonly format: 1;
  /** Commit lines of history.jsonl. */
  readonly commits: number;
  /** file name → sha256 of every pack file and history.jsonl. */
  readonly files: Readonly<Record<string, string>>;
}

/** sha256 of a file, read in chunks (packs can be large). */
function fileSha256(path: string): string {
  const hash = createHash('sha256');
  const buf = Buffer.alloc(1 << 20);
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Packs the objects of `tip` minus those reachable from `not` from `mirror` into `dir` (created). */
async function packInto(mirror: string, dir: string, tip: string, not: string | null): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await runGit(mirror, ['pack-objects', '--revs', '-q', join(dir, 'pack')], { input: `${tip}\n${not ? `^${not}\n` : ''}` });
}

/** Writes the history part of `tip ^not` to `path` (read-only), returning its commit count and digest. */
async function writePart(mirror: string, path: string, tip: string, not: string | null): Promise<{ commits: number; sha256: string }> {
  const hash = createHash('sha256');
  const commits = await writeHistoryMetadata(mirror, not ? [tip, `^${not}`] : [tip], path, hash);
  chmodSync(path, 0o444);
  return { commits, sha256: hash.digest('hex') };
}

/** Layer files already checked in this process, by path, with the file state they had then. */
const verified = new Map<string, string>();

const fileState = (path: string): string => {
  const st = statSync(path);
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
};

/** layer.json of `dir`, every file it names checked against its digest; throws one line naming the layer and the problem. */
function verifiedLayer(dir: string): LayerDescription {
  const broken = (what: string): never => {
    throw new ValidationError(`${dir}: ${what} (a damaged history layer: remove the directory to rebuild it, and re-package the packages linked to it)`);
  };
  let d: LayerDescription;
  try {
    d = JSON.parse(readFileSync(join(dir, LAYER_JSON), 'utf8')) as LayerDescription;
  } catch {
    return broken(`${LAYER_JSON} is missing or not JSON`);
  }
  if (d?.format !== 1 || !Number.isInteger(d.commits) || typeof d.files !== 'object' || d.files === null || typeof d.files[LAYER_HISTORY] !== 'string') {
    return broken(`${LAYER_JSON} is not a layer description`);
  }
  const names = readdirSync(dir).filter((n) => n !== LAYER_JSON).sort();
  const listed = Object.keys(d.files).sort();
  if (names.join('\n') !== listed.join('\n')) broken(`holds ${names.join(', ') || 'nothing'}, ${LAYER_JSON} lists ${listed.join(', ')}`);
  for (const name of listed) {
    const path = join(dir, name);
    const state = fileState(path);
    if (verified.get(path) === state) continue;
    if (fileSha256(path) !== d.files[name]) broken(`${name} does not match its digest in ${LAYER_JSON}`);
    verified.set(path, state);
  }
  return d;
}

/**
 * The layer `from..to` under `store`, built when missing (under a temporary name, renamed when
 * complete) and verified when present. A layer of an older layout (packs without layer.json) is
 * rebuilt beside it and swapped in; packages linked to its old files keep them.
 */
async function layer(mirror: string, store: string, from: string | null, to: string): Promise<{ dir: string; commits: number; sha256: string }> {
  const dir = join(store, `${from ?? 'root'}..${to}`);
  const done = (): { dir: string; commits: number; sha256: string } => {
    const d = verifiedLayer(dir);
    return { dir, commits: d.commits, sha256: d.files[LAYER_HISTORY]! };
  };
  if (existsSync(join(dir, LAYER_JSON))) return done();
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await packInto(mirror, tmp, to, from);
    const part = await writePart(mirror, join(tmp, LAYER_HISTORY), to, from);
    const files: Record<string, string> = {};
    for (const name of readdirSync(tmp).sort()) files[name] = name === LAYER_HISTORY ? part.sha256 : fileSha256(join(tmp, name));
    const description: LayerDescription = { format: 1, commits: part.commits, files };
    writeFileSync(join(tmp, LAYER_JSON), `${canonicalJson(description)}\n`, { mode: 0o444 });
    if (existsSync(dir) && !existsSync(join(dir, LAYER_JSON))) {
      const old = `${dir}.old-${process.pid}`;
      renameSync(dir, old);
      renameSync(tmp, dir);
      rmSync(old, { recursive: true, force: true });
    } else {
      try {
        renameSync(tmp, dir);
      } catch (error) {
        if (!existsSync(dir)) throw error; // built meanwhile by another packaging of the same set
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  return done();
}

/** Hard-links (or copies, across file systems) `from` to `to`. */
function linkFile(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Fills `gitDir/objects/pack` with exactly the history of `cutoff` and `historyDir` (created)
 * with its history parts: the shared layers below it (from `store`, built as needed) and a pack
 * and a part of the rest. With `store` null, one pack and one part of the whole history (no
 * sharing). Returns the parts, oldest first.
 */
export async function packHistory(
  mirror: string,
  gitDir: string,
  historyDir: string,
  cutoff: string,
  branch: string | null,
  store: string | null,
  layerCommits = LAYER_COMMITS,
): Promise<HistoryPart[]> {
  const packDir = join(gitDir, 'objects', 'pack');
  mkdirSync(historyDir, { recursive: true });
  const parts: HistoryPart[] = [];
  const partPath = (): string => join(historyDir, historyPartName(parts.length));
  const named = (p: { commits: number; sha256: string }): HistoryPart => ({ path: `${HISTORY_DIR}/${historyPartName(parts.length)}`, commits: p.commits, sha256: p.sha256 });
  let prev: string | null = null;
  if (store !== null) {
    for (const b of await boundariesBelow(mirror, branch, cutoff, layerCommits)) {
      const l = await layer(mirror, store, prev, b);
      mkdirSync(packDir, { recursive: true });
      for (const name of readdirSync(l.dir)) if (PACK_FILE.test(name) && !existsSync(join(packDir, name))) linkFile(join(l.dir, name), join(packDir, name));
      linkFile(join(l.dir, LAYER_HISTORY), partPath());
      parts.push(named(l));
      prev = b;
    }
  }
  if (prev !== cutoff) {
    await packInto(mirror, packDir, cutoff, prev);
    const path = partPath();
    parts.push(named(await writePart(mirror, path, cutoff, prev)));
  }
  return parts;
}
