/**
 * Partial (blobless) mirrors. A mirror cloned with `--filter=blob:none` holds every commit and
 * tree but no file contents; resolution, cutoffs, structural checks and Δ* need nothing more.
 * What does read file contents asks for them here, in one batch per call, instead of letting git
 * fetch them lazily one object per process: routing reads the blobs under .github/workflows.
 * Checkouts (probes, packages, pairs) let git fetch what they need (it batches those itself).
 */
import { MinerError } from '../errors.js';
import { stderrTail } from './errors.js';
import { runGit } from './runner.js';

const partial = new Map<string, Promise<boolean>>();

/** True when the repository is a partial clone (a promisor remote is configured). */
export function isPartialRepo(gitDir: string): Promise<boolean> {
  let p = partial.get(gitDir);
  if (!p) {
    p = runGit(gitDir, ['config', '--get', 'extensions.partialClone'], { allowExit: [0, 1] })
      .then((r) => r.exitCode === 0 && r.stdout.trim() !== '')
      .catch(() => false);
    partial.set(gitDir, p);
  }
  return p;
}

/** Forgets what isPartialRepo learnt about `gitDir` (after the mirror was re-created). */
export function forgetPartial(gitDir: string): void {
  partial.delete(gitDir);
}

/** Blobs fetched on demand per git directory in this process (reported by the mirror benchmark and logs). */
const fetched = new Map<string, number>();

export function blobsFetched(gitDir: string): number {
  return fetched.get(gitDir) ?? 0;
}

/**
 * The objects under `treeish` (a tree, or `<rev>^{tree}:<dir>`) that the repository does not
 * have. `rev-list --missing=print` never fetches: it lists a missing object as `?<oid>`.
 * An absent path gives no objects.
 */
export async function missingObjects(gitDir: string, treeish: string): Promise<string[]> {
  const t = await runGit(gitDir, ['rev-parse', '--verify', '--quiet', treeish], { allowExit: [0, 1, 128] });
  if (t.exitCode !== 0) return [];
  const r = await runGit(gitDir, ['rev-list', '--objects', '--missing=print', t.stdout.trim()]);
  return r.stdout
    .split('\n')
    .filter((l) => l.startsWith('?'))
    .map((l) => l.slice(1).trim());
}

/** The object id a git failure names as missing on the remote or locally, if any. */
export function missingObjectIn(stderr: string): string | null {
  const m =
    /not our ref ([0-9a-f]{40,64})/.exec(stderr) ??
    /could not fetch ([0-9a-f]{40,64})/.exec(stderr) ??
    /(?:missing|bad) (?:object|blob|tree|commit) ([0-9a-f]{40,64})/.exec(stderr) ??
    /unable to read ([0-9a-f]{40,64})/.exec(stderr);
  return m ? m[1]! : null;
}

/**
 * Fetches `oids` from the promisor remote in one request (what git's own lazy fetch runs, for
 * many objects at once). A remote that lacks one fails with one line naming the repository and
 * the object.
 */
export async function fetchObjects(gitDir: string, repo: string, oids: readonly string[], signal?: AbortSignal): Promise<number> {
  if (oids.length === 0) return 0;
  const r = await runGit(
    gitDir,
    ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', 'origin', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', '--filter=blob:none', '--stdin'],
    { input: `${oids.join('\n')}\n`, allowExit: [0, 1, 128], timeoutMs: 30 * 60 * 1000, signal },
  );
  if (r.exitCode !== 0) {
    const oid = missingObjectIn(r.stderr);
    if (oid) throw new MinerError('git', `${repo}: the remote lacks object ${oid} (the mirror is partial; fetch it from a complete remote, or set repos[].git_dir to a full copy)`);
    throw new MinerError('git', `${repo}: fetching ${oids.length} objects of the partial mirror failed: ${stderrTail(r.stderr, 1)}`);
  }
  fetched.set(gitDir, (fetched.get(gitDir) ?? 0) + oids.length);
  return oids.length;
}

/** Makes sure the blobs under `dir` ('' = the whole tree) at `rev` are present (one batch fetch in a partial mirror). */
export async function ensureBlobsUnder(gitDir: string, rev: string, dir: string, repo = gitDir): Promise<number> {
  if (!(await isPartialRepo(gitDir))) return 0;
  const missing = await missingObjects(gitDir, dir === '' ? `${rev}^{tree}` : `${rev}^{tree}:${dir}`);
  return fetchObjects(gitDir, repo, missing);
}
