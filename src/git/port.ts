import { MinerError } from '../errors.js';
import { BranchHistory } from './branch-history.js';
import { openGitRepos, type GitRepoHandle, type MirrorFetchMode, type MirrorHandle, type Mirrors } from './repos.js';

/**
 * The git port of a run: the repositories' mirrors, opened on first use and closed once when the
 * run ends, and what a run learns about them (which ones discover refreshed, branch histories).
 */
export interface GitRepos {
  /** The repository's mirror: cloned when missing, fetched when it can matter (see MirrorFetchMode). */
  get(repo: string): Promise<MirrorHandle>;
  /** Discover refreshed the repository's GitHub data in this run: fetch its mirror when first opened. */
  markStale(repo: string): void;
  /**
   * The history of a mirror's branch (cutoffs and ancestry in memory), read once per run and branch
   * tip: every case of the repository shares it, and a fetch that moves the tip gives a fresh one.
   */
  /** The branch's history read once per tip; `aliases`: the repository's former names (foxtrot evidence). */
  branchHistory(handle: GitRepoHandle, branch: string, aliases?: readonly string[]): Promise<BranchHistory>;
  close(): Promise<void>;
}

export interface GitPortOptions {
  /** Where mirrors live (`<dataDir>/mirrors/…`); required once a mirror is opened. */
  readonly dataDir: string;
  readonly urlFor: (repo: string) => string;
  /** A repository already on disk (`repos[].git_dir`): used in place, never fetched into. */
  readonly gitDirFor?: (repo: string) => string | undefined;
  /** When to fetch an existing mirror; default 'when-needed'. */
  readonly mode?: MirrorFetchMode;
  readonly signal?: AbortSignal;
}

/** A GitRepos port whose mirrors are opened lazily (a run that opens none needs no data directory). */
export function createGitPort(opts: GitPortOptions): GitRepos {
  const stale = new Set<string>();
  const histories = new Map<string, Promise<BranchHistory>>();
  let mirrors: Mirrors | null = null;
  const open = (): Mirrors => {
    if (mirrors) return mirrors;
    if (opts.dataDir.length === 0) throw new MinerError('config', 'git mirrors need a data directory (run option dataDir is missing)');
    mirrors = openGitRepos({
      dataDir: opts.dataDir,
      urlFor: opts.urlFor,
      gitDirFor: opts.gitDirFor,
      mode: opts.mode,
      refreshFirst: (repo) => stale.has(repo.toLowerCase()),
      signal: opts.signal,
    });
    return mirrors;
  };
  return {
    get: (repo) => open().get(repo),
    markStale: (repo) => void stale.add(repo.toLowerCase()),
    async branchHistory(handle, branch, aliases = []) {
      const [tip] = await handle.objects.info([`refs/heads/${branch}`]);
      const names = [handle.repo, ...aliases].map((n) => n.toLowerCase());
      const key = `${handle.gitDir}\u0000${branch}\u0000${tip?.sha ?? 'missing'}\u0000${names.join(' ')}`;
      let history = histories.get(key);
      if (!history) {
        history = BranchHistory.load(handle.gitDir, branch, names);
        histories.set(key, history);
      }
      return history;
    },
    async close() {
      histories.clear();
      const m = mirrors;
      mirrors = null;
      if (m) await m.close();
    },
  };
}
