import { existsSync } from 'node:fs';
import { isTransient, MinerError } from '../errors.js';
import { BatchObjects } from './batch.js';
import { ensureMirror, mirrorDir } from './mirror.js';

export interface GitRepoHandle {
  readonly repo: string;
  readonly gitDir: string;
  readonly objects: BatchObjects;
}

/** A run's handle on a mirror: a GitRepoHandle that can fetch what a stage finds missing. */
export interface MirrorHandle extends GitRepoHandle {
  /**
   * Makes sure these objects (full SHAs) are in the mirror: when one is missing, fetches the
   * mirror (at most once per run and repository) and looks again. Resolves to the ids still
   * missing afterwards (empty when all are there).
   */
  ensureObjects(ids: readonly string[]): Promise<string[]>;
}

/**
 * When a run fetches an existing mirror: 'when-needed' (default) only when a stage needs an object
 * that is missing or `refreshFirst(repo)` says so (discover ran for it in this run); 'always'
 * (`--refresh-mirrors`) on first use; 'never' not at all (a missing mirror is an error).
 * A missing mirror is cloned in the first two modes.
 */
export type MirrorFetchMode = 'when-needed' | 'always' | 'never';

/** The mirrors opened by one run (see openGitRepos); stages see them through the GitRepos port (port.ts). */
export interface Mirrors {
  get(repo: string): Promise<MirrorHandle>;
  close(): Promise<void>;
}

/**
 * Per-run access to mirrors: a missing mirror is cloned, an existing one is used as is and
 * fetched only when it can matter (see MirrorFetchMode), at most once per run; its object reader
 * stays open until close(). A failure other than a transient one is the answer for the rest of
 * the run. `fetch: false` is the old spelling of mode 'never'.
 */
export function openGitRepos(opts: {
  dataDir: string;
  urlFor: (repo: string) => string;
  /** A repository already on disk (`repos[].git_dir`): used in place, never fetched into. */
  gitDirFor?: (repo: string) => string | undefined;
  fetch?: boolean;
  mode?: MirrorFetchMode;
  /** 'when-needed': fetch an existing mirror on first use anyway (e.g. discover saw new data). */
  refreshFirst?: (repo: string) => boolean;
  signal?: AbortSignal;
}): Mirrors {
  const defaultMode: MirrorFetchMode = opts.fetch === false ? 'never' : (opts.mode ?? 'when-needed');
  const handles = new Map<string, Promise<MirrorHandle>>();
  const opened: BatchObjects[] = [];
  let closed = false;
  const open = async (repo: string): Promise<MirrorHandle> => {
    const inPlace = opts.gitDirFor?.(repo);
    const gitDir = inPlace ?? mirrorDir(opts.dataDir, repo);
    const mode: MirrorFetchMode = inPlace !== undefined ? 'never' : defaultMode;
    let fetched: Promise<void> | null = null;
    const fetchOnce = (): Promise<void> => (fetched ??= ensureMirror({ repo, url: opts.urlFor(repo), dir: gitDir, signal: opts.signal }));
    if (inPlace !== undefined) {
      if (!existsSync(inPlace)) throw new MinerError('config', `${repo}: repos[].git_dir ${inPlace} does not exist`);
    } else if (!existsSync(gitDir)) {
      if (mode === 'never') throw new MinerError('not-found', `${repo}: no mirror at ${gitDir} (run once with fetching enabled)`);
      await fetchOnce();
    } else if (mode === 'always' || (mode === 'when-needed' && opts.refreshFirst?.(repo) === true)) {
      await fetchOnce();
    }
    if (closed) throw new MinerError('internal', `${repo}: git repositories already closed`);
    const objects = BatchObjects.open(gitDir);
    opened.push(objects);
    const missingOf = async (ids: readonly string[]): Promise<string[]> => {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return [];
      const answers = await objects.info(unique);
      return unique.filter((_, i) => answers[i]?.kind !== 'object');
    };
    const ensureObjects = async (ids: readonly string[]): Promise<string[]> => {
      const missing = await missingOf(ids);
      if (missing.length === 0 || mode === 'never') return missing;
      await fetchOnce(); // memoised: a second miss in the same run does not fetch again
      return missingOf(missing);
    };
    return { repo, gitDir, objects, ensureObjects };
  };
  return {
    get(repo: string): Promise<MirrorHandle> {
      const key = repo.toLowerCase();
      let p = handles.get(key);
      if (!p) {
        p = open(repo);
        handles.set(key, p);
        // A transient failure is not cached: a later item may retry it. Any other failure (no
        // such repository, a source missing objects) would fail the same way for every item.
        p.catch((error: unknown) => {
          if (isTransient(error)) handles.delete(key);
        });
      }
      return p;
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all(opened.splice(0).map((o) => o.close()));
      handles.clear();
    },
  };
}
