import { execa } from 'execa';
import { makeRepo, tempDir } from '../../../support/make-repo.js';

export interface ProbeRepo {
  /** Bare mirror of the history. */
  readonly gitDir: string;
  /** SHAs of the commits, in order. */
  readonly shas: string[];
  /** Directory for worktrees. */
  readonly workRoot: string;
}

/** A repository whose commits write the given files (null deletes), mirrored bare. */
export async function probeRepo(commits: Record<string, string | null>[]): Promise<ProbeRepo> {
  const repo = await makeRepo();
  const shas: string[] = [];
  for (const [i, files] of commits.entries()) shas.push(await repo.commit(`commit ${i}`, { files }));
  return { gitDir: await repo.bareMirror(), shas, workRoot: await tempDir('r2v-work-') };
}

/** Paths of the worktrees git still knows, besides the bare mirror itself. */
export async function listedWorktrees(gitDir: string): Promise<string[]> {
  const r = await execa('git', [`--git-dir=${gitDir}`, 'worktree', 'list', '--porcelain'], { env: { LC_ALL: 'C' } });
  return r.stdout
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .filter((p) => p !== gitDir && !gitDir.endsWith(p));
}

/** The add/check scripts of a tiny project: build copies lib.sh; check prints a sum. */
export const CHECK = `echo "checking sum"
. ./build/lib.sh
s=$(add 2 2)
if [ "$s" != 4 ]; then echo "wrong sum: $s" >&2; exit 1; fi
echo "sum ok"
`;
export const BUILD_OK = 'mkdir -p build && cp lib.sh build/lib.sh\n';
export const LIB_GOOD = 'add() { echo $(($1 + $2)); }\n';
export const LIB_BAD = 'add() { echo $(($1 + $2 + 1)); }\n';
