/**
 * Object-level git work for one pair, against a bare mirror, without touching it: every index is
 * a temporary file (GIT_INDEX_FILE) and every object we create (patched trees, commits, merge
 * results) goes to a scratch object directory that borrows the mirror's objects as an alternate.
 * A killed run leaves only a temp directory behind; the mirror never sees our objects.
 *
 * Git runs through src/git/runner.ts; the repository, the scratch object directory and the index
 * are named by GIT_DIR, GIT_OBJECT_DIRECTORY and GIT_INDEX_FILE in the environment.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GitError, runGitBuffer } from '../git/runner.js';

const FIXED_IDENT: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: 'r2v',
  GIT_AUTHOR_EMAIL: 'r2v@localhost',
  GIT_COMMITTER_NAME: 'r2v',
  GIT_COMMITTER_EMAIL: 'r2v@localhost',
  GIT_AUTHOR_DATE: '1000000000 +0000',
  GIT_COMMITTER_DATE: '1000000000 +0000',
};

export interface ChangedFile {
  readonly status: 'A' | 'M' | 'D' | 'T';
  readonly path: string;
}

export type ApplyResult = { readonly ok: true; readonly trees: readonly string[] } | { readonly ok: false; readonly patch: number; readonly stderr: string };
export type MergeResult = { readonly clean: true; readonly tree: string } | { readonly clean: false; readonly conflicts: readonly string[] };

const literal = (p: string): string => `:(literal)${p}`;

/** Scratch directories in the system temp dir: `r2v-pairs-<pid>-XXXXXX` (cleaned at the next run once the pid is gone). */
export const PAIRS_SCRATCH_PREFIX = 'r2v-pairs-';

export class PairGit {
  private indexCount = 0;
  private constructor(
    readonly gitDir: string,
    private readonly scratch: string,
    private readonly timeoutMs: number,
  ) {}

  /** Opens a scratch area over a bare (or non-bare `.git`) repository. Call close() when done. */
  static async open(gitDir: string, options: { timeoutMs?: number } = {}): Promise<PairGit> {
    const scratch = await mkdtemp(join(tmpdir(), `${PAIRS_SCRATCH_PREFIX}${process.pid}-`));
    await mkdir(join(scratch, 'objects', 'pack'), { recursive: true });
    return new PairGit(resolve(gitDir), scratch, options.timeoutMs ?? 120_000);
  }

  async close(): Promise<void> {
    await rm(this.scratch, { recursive: true, force: true });
  }

  /** A fresh temporary directory inside the scratch area. */
  async tempDir(prefix: string): Promise<string> {
    return mkdtemp(join(this.scratch, `${prefix}-`));
  }

  private async run(
    args: readonly string[],
    opts: { input?: Buffer | string; index?: string; allowExit?: readonly number[]; workTree?: string } = {},
  ): Promise<{ stdout: Buffer; stderr: string; exitCode: number }> {
    const env: Record<string, string> = {
      GIT_DIR: this.gitDir,
      GIT_OBJECT_DIRECTORY: join(this.scratch, 'objects'),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(this.gitDir, 'objects'),
      GIT_INDEX_FILE: opts.index ?? join(this.scratch, 'unused-index'),
      ...FIXED_IDENT,
    };
    if (opts.workTree) env.GIT_WORK_TREE = opts.workTree;
    return runGitBuffer('', args, { env, cwd: opts.workTree, input: opts.input, timeoutMs: this.timeoutMs, allowExit: opts.allowExit });
  }

  private async text(args: readonly string[]): Promise<string> {
    return (await this.run(args)).stdout.toString('utf8').trim();
  }

  private newIndex(): string {
    this.indexCount += 1;
    return join(this.scratch, `index-${this.indexCount}`);
  }

  /** Which of `revs` name a commit present in the repository (one process for all). */
  async missingCommits(revs: readonly string[]): Promise<string[]> {
    const clean = revs.filter((r) => /^[^\s]+$/.test(r));
    const input = clean.map((r) => `${r}^{commit}\n`).join('');
    const lines = clean.length === 0 ? [] : (await this.run(['cat-file', '--batch-check'], { input })).stdout.toString('utf8').split('\n');
    const missing = revs.filter((r) => !clean.includes(r));
    clean.forEach((r, i) => {
      if (!/^[0-9a-f]{40,64} commit /.test(lines[i] ?? '')) missing.push(r);
    });
    return missing;
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const r = await this.run(['merge-base', a, b], { allowExit: [1] });
    return r.exitCode === 0 ? r.stdout.toString('utf8').trim() : null;
  }

  async isAncestor(a: string, b: string): Promise<boolean> {
    return (await this.run(['merge-base', '--is-ancestor', a, b], { allowExit: [1] })).exitCode === 0;
  }

  async commitTime(sha: string): Promise<number> {
    return Number(await this.text(['show', '-s', '--format=%ct', sha]));
  }

  /** Files changed from the merge base of `base` and `head` to `head` (renames as delete + add). */
  async changedFiles(base: string, head: string): Promise<ChangedFile[]> {
    const out = (await this.run(['diff', '--name-status', '--no-renames', '-z', `${base}...${head}`])).stdout.toString('utf8');
    const parts = out.split('\0');
    const files: ChangedFile[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]!.charAt(0);
      if (status === 'A' || status === 'M' || status === 'D' || status === 'T') files.push({ status, path: parts[i + 1]! });
    }
    return files.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  }

  /** The binary-safe patch of `base...head` restricted to `paths` (empty buffer when none). */
  async diff(base: string, head: string, paths: readonly string[]): Promise<Buffer> {
    if (paths.length === 0) return Buffer.alloc(0);
    const args = ['diff', '--binary', '--full-index', '--no-renames', '--no-color', '--no-ext-diff', `${base}...${head}`, '--', ...paths.map(literal)];
    return (await this.run(args)).stdout;
  }

  /** Content of `path` at `rev`, or null when absent. */
  async readFile(rev: string, path: string): Promise<string | null> {
    const r = await this.run(['cat-file', 'blob', `${rev}:${path}`], { allowExit: [128] });
    return r.exitCode === 0 ? r.stdout.toString('utf8') : null;
  }

  /**
   * Applies the patches in order to the tree of `commit` (index only) and returns the tree after
   * each one (an empty patch leaves it unchanged), or which patch failed.
   */
  async applyToTree(commit: string, patches: readonly Buffer[]): Promise<ApplyResult> {
    const index = this.newIndex();
    try {
      await this.run(['read-tree', commit], { index });
      const trees: string[] = [];
      for (const [i, patch] of patches.entries()) {
        if (patch.length > 0) {
          const r = await this.run(['apply', '--cached', '--whitespace=nowarn', '-'], { index, input: patch, allowExit: [1, 128] });
          if (r.exitCode !== 0) return { ok: false, patch: i, stderr: r.stderr.trim() };
        }
        trees.push((await this.run(['write-tree'], { index })).stdout.toString('utf8').trim());
      }
      return { ok: true, trees };
    } finally {
      await rm(index, { force: true });
    }
  }

  /** A commit of `tree` with one parent (fixed identity and date, so the same inputs give the same SHA). */
  async commitTree(tree: string, parent: string, message: string): Promise<string> {
    return this.text(['commit-tree', tree, '-p', parent, '-m', message]);
  }

  /** Three-way merge of two commits without a worktree; conflicts list the conflicted paths. */
  async mergeCommits(a: string, b: string): Promise<MergeResult> {
    const r = await this.run(['merge-tree', '--write-tree', '--name-only', '--no-messages', a, b], { allowExit: [1] });
    const lines = r.stdout.toString('utf8').split('\n').filter((l) => l.length > 0);
    if (r.exitCode === 0) return { clean: true, tree: lines[0]! };
    // Exit 1 with no tree id means an unusable input, not a conflict.
    if (lines.length === 0) throw new GitError(['merge-tree', a, b], 1, r.stderr);
    return { clean: false, conflicts: [...new Set(lines.slice(1))].sort() };
  }

  /** Writes the files of `tree` into the empty directory `dir` (one process: read-tree -u into a fresh index). */
  async checkout(tree: string, dir: string): Promise<void> {
    const index = this.newIndex();
    await this.run(['read-tree', '-u', '--reset', tree], { index, workTree: dir });
    await rm(index, { force: true });
  }
}
