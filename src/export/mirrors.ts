/**
 * Where the git objects of a manifest's repositories are: one directory given with --git-dir
 * (every repository of the manifest), or the configured mirrors under the data directory.
 */
import { existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { mirrorDir } from '../git/mirror.js';

export type MirrorOf = (repo: string) => string;

/** Every repository maps to the one git directory the user gave. */
export function singleMirror(gitDir: string): MirrorOf {
  return () => gitDir;
}

/**
 * The mirror of each repository under `dataDir` (or its configured `git_dir`, used in place);
 * a missing one is a usage error naming it.
 */
export function configuredMirrors(dataDir: string, gitDirFor: (repo: string) => string | undefined = () => undefined): MirrorOf {
  return (repo) => {
    const dir = gitDirFor(repo) ?? mirrorDir(dataDir, repo);
    if (!existsSync(dir)) throw new UsageError(`${repo}: no mirror at ${dir} (run the pipeline first, or pass --git-dir DIR)`);
    return dir;
  };
}
