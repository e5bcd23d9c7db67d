import { isAbsolute, resolve } from 'node:path';
import { repoConfig } from '../config.js';
import { MinerError } from '../errors.js';
import { defaultGitUrl } from '../git/mirror.js';
import { BranchHistory } from '../git/branch-history.js';
import { openGitRepos, type GitRepoHandle, type GitRepos } from '../git/repos.js';
import type { StageContext } from './types.js';

/**
 * The run's git mirrors, opened once per run and closed by the runner at the end. The mirror
 * URL of a repository is its configured `git_url`, else GitHub's.
 */
export function gitReposOf(ctx: StageContext): GitRepos {
  return ctx.services.get('git', () => {
    const dataDir = ctx.options.dataDir;
    if (typeof dataDir !== 'string' || dataDir.length === 0) {
      throw new MinerError('config', 'git mirrors need a data directory (run option dataDir is missing)');
    }
    const repos = openGitRepos({
      dataDir,
      urlFor: (repo) => resolveGitUrl(repoConfig(ctx.config, repo)?.git_url, ctx.options.configDir) ?? defaultGitUrl(repo),
      gitDirFor: (repo) => {
        const dir = repoConfig(ctx.config, repo)?.git_dir;
        return dir === undefined ? undefined : resolveGitUrl(dir, ctx.options.configDir);
      },
      fetch: ctx.options.fetch === false ? false : undefined,
      mode: ctx.options.refreshMirrors === true ? 'always' : undefined,
      refreshFirst: (repo) => discoveredInThisRun(ctx).has(repo.toLowerCase()),
      signal: ctx.signal,
    });
    ctx.services.onClose(() => repos.close());
    return repos;
  });
}

/** Repositories whose GitHub data discover refreshed in this run: their mirrors are fetched on first use. */
function discoveredInThisRun(ctx: StageContext): Set<string> {
  return ctx.services.get('git-discovered', () => new Set<string>());
}

/** Discover calls this for each repository it synced, so later stages of the run see its new commits. */
export function markMirrorStale(ctx: StageContext, repo: string): void {
  discoveredInThisRun(ctx).add(repo.toLowerCase());
}

/**
 * A configured git URL; a relative local path is taken relative to the config file's directory
 * (like data_dir), not to wherever r2v was started.
 */
export function resolveGitUrl(url: string | undefined, configDir: unknown): string | undefined {
  if (url === undefined) return undefined;
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/\\]+@[^:]+:/.test(url);
  if (isUrl || isAbsolute(url) || typeof configDir !== 'string') return url;
  return resolve(configDir, url);
}

/**
 * The history of a mirror's branch (cutoffs and ancestry in memory), read once per run and branch
 * tip: every case of the repository shares it, and a fetch that moves the tip gives a fresh one.
 */
export async function branchHistoryOf(ctx: StageContext, handle: GitRepoHandle, branch: string): Promise<BranchHistory> {
  const [tip] = await handle.objects.info([`refs/heads/${branch}`]);
  const key = `branch-history:${handle.gitDir}:${branch}:${tip?.sha ?? 'missing'}`;
  return ctx.services.get(key, () => BranchHistory.load(handle.gitDir, branch));
}
