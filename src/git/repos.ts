import { existsSync } from 'node:fs';
import { isTransient, MinerError } from '../errors.js';
import { BatchObjects } from './batch.js';
import { ensureMirror, mirrorDir } from './mirror.js';

export interface GitRepoHandle {
  readonly repo: string;
  readonly gitDir: string;
  readonly objects: BatchObjects;
}

export interface GitRepos {
  get(repo: string): Promise<GitRepoHandle>;
  close(): Promise<void>;
}

/**
 * Per-run access to mirrors: each repository's mirror is ensured (cloned or fetched) once per
 * run, then its object reader stays open until close(); a failure other than a transient one is
 * the answer for the rest of the run. With fetch: false an existing mirror is
 * used as is and a missing one is an error.
 */
export function openGitRepos(opts: { dataDir: string; urlFor: (repo: string) => string; fetch?: boolean; signal?: AbortSignal }): GitRepos {
  const handles = new Map<string, Promise<GitRepoHandle>>();
  const opened: BatchObjects[] = [];
  let closed = false;
  const open = async (repo: string): Promise<GitRepoHandle> => {
    const gitDir = mirrorDir(opts.dataDir, repo);
    if (opts.fetch === false) {
      if (!existsSync(gitDir)) throw new MinerError('not-found', `${repo}: no mirror at ${gitDir} (run once with fetching enabled)`);
    } else {
      await ensureMirror({ repo, url: opts.urlFor(repo), dir: gitDir, signal: opts.signal });
    }
    if (closed) throw new MinerError('internal', `${repo}: git repositories already closed`);
    const objects = BatchObjects.open(gitDir);
    opened.push(objects);
    return { repo, gitDir, objects };
  };
  return {
    get(repo: string): Promise<GitRepoHandle> {
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
