/**
 * What a workspace changed relative to a base commit, read without touching the workspace's own
 * index: untracked files are made visible by intent-to-add entries in a scratch copy of the index
 * (GIT_INDEX_FILE), the diff is taken with `--no-renames` (a move is a deletion plus an addition),
 * and ignored files are listed so a caller can tell which ones a run created.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { commitIdOf } from '../git/revision.js';
import { runGit } from '../git/runner.js';

export type ChangeStatus = 'A' | 'M' | 'D' | 'T';

export interface FileChange {
  readonly path: string;
  readonly status: ChangeStatus;
  /** Lines added and deleted; null for a binary file. */
  readonly added: number | null;
  readonly deleted: number | null;
}

export interface Workspace {
  /** Absolute path of the work tree's top level. */
  readonly root: string;
  readonly gitDir: string;
}

export interface WorkspaceState {
  readonly changes: readonly FileChange[];
  /** Ignored untracked files present now (`ls-files --others --ignored --exclude-standard`), sorted. */
  readonly ignored: readonly string[];
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Opens `dir` as the top level of a git work tree; a usage error names the flag and the problem otherwise. */
export async function openWorkspace(dir: string, flag = '--workspace'): Promise<Workspace> {
  if (!existsSync(dir)) throw new UsageError(`${flag} ${dir}: no such directory`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`${flag} ${dir}: not a directory`);
  const r = await runGit('', ['rev-parse', '--show-toplevel', '--absolute-git-dir'], { cwd: dir, allowExit: [128] });
  const [top, gitDir] = r.stdout.split('\n');
  if (r.exitCode !== 0 || !top || !gitDir) throw new UsageError(`${flag} ${dir}: not a git work tree`);
  if (realpathSync(top) !== realpathSync(dir)) throw new UsageError(`${flag} ${dir}: inside the work tree ${top}; give its top-level directory`);
  return { root: realpathSync(dir), gitDir };
}

/** The full commit id of `rev` in the workspace's repository, or a usage error naming the flag. */
export async function workspaceCommit(ws: Workspace, rev: string, flag = '--base'): Promise<string> {
  if (rev.startsWith('-')) throw new UsageError(`${flag} ${rev}: not a commit`);
  const sha = await commitIdOf(ws.gitDir, rev);
  if (sha === null) throw new UsageError(`${flag} ${rev}: not a commit in ${ws.root}`);
  return sha;
}

const splitZ = (s: string): string[] => s.split('\0').filter((p) => p.length > 0);

/** Parses `diff --numstat -z` (no renames): "added\tdeleted\tpath\0" per file, `-` for binary. */
export function parseNumstat(out: string): Map<string, { added: number | null; deleted: number | null }> {
  const m = new Map<string, { added: number | null; deleted: number | null }>();
  for (const rec of splitZ(out)) {
    const [a, d, ...rest] = rec.split('\t');
    const path = rest.join('\t');
    m.set(path, { added: a === '-' ? null : Number(a), deleted: d === '-' ? null : Number(d) });
  }
  return m;
}

/** Parses `diff --name-status -z` (no renames): "S\0path\0" per file. */
export function parseNameStatus(out: string): { status: ChangeStatus; path: string }[] {
  const parts = out.split('\0');
  const files: { status: ChangeStatus; path: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const s = parts[i]!.charAt(0);
    if (s === 'A' || s === 'M' || s === 'D' || s === 'T') files.push({ status: s, path: parts[i + 1]! });
  }
  return files;
}

/**
 * The changes of the work tree against `base` (tracked, untracked and deleted files) and the
 * ignored files present now. The workspace's index is copied to a scratch file first; every git
 * command here runs on that copy.
 */
export async function readWorkspace(ws: Workspace, base: string): Promise<WorkspaceState> {
  const scratch = mkdtempSync(join(tmpdir(), 'r2v-grade-'));
  try {
    const index = join(scratch, 'index');
    const own = join(ws.gitDir, 'index');
    if (existsSync(own)) copyFileSync(own, index);
    const env = { GIT_INDEX_FILE: index, GIT_LITERAL_PATHSPECS: '1' };
    const git = (args: string[], input?: string) => runGit(ws.gitDir, [`--work-tree=${ws.root}`, ...args], { env, cwd: ws.root, input });
    const untracked = splitZ((await git(['ls-files', '--others', '--exclude-standard', '-z'])).stdout);
    if (untracked.length > 0) {
      await git(['add', '--intent-to-add', '--pathspec-from-file=-', '--pathspec-file-nul'], untracked.map((p) => `${p}\0`).join(''));
    }
    const common = ['diff', '--no-renames', '--no-ext-diff', '--no-textconv', '--ignore-submodules=none', '-z', base, '--'];
    const numstat = parseNumstat((await git([...common.slice(0, 1), '--numstat', ...common.slice(1)])).stdout);
    const statuses = parseNameStatus((await git([...common.slice(0, 1), '--name-status', ...common.slice(1)])).stdout);
    const changes = statuses
      .map((s) => ({ ...s, added: numstat.get(s.path)?.added ?? null, deleted: numstat.get(s.path)?.deleted ?? null }))
      .sort(byPath);
    const ignored = splitZ((await git(['ls-files', '--others', '--ignored', '--exclude-standard', '-z'])).stdout).sort();
    return { changes, ignored };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A path as git prints it without -z: C-quoted ("caf\303\251.txt") when it has special bytes. */
export function unquoteGitPath(line: string): string {
  if (line.length < 2 || !line.startsWith('"') || !line.endsWith('"')) return line;
  const bytes: number[] = [];
  const body = line.slice(1, -1);
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-3]/.test(next) && /^[0-7]{3}$/.test(body.slice(i + 1, i + 4))) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(C_ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Reads a before-run ignored-file list as `git ls-files --others --ignored --exclude-standard`
 * prints it: one path per line (C-quoted paths unquoted), or NUL-separated with `-z`.
 */
export function readPathList(path: string, flag: string): string[] {
  if (!existsSync(path)) throw new UsageError(`${flag} ${path}: no such file`);
  if (!statSync(path).isFile()) throw new UsageError(`${flag} ${path}: not a file`);
  const text = readFileSync(path, 'utf8');
  if (text.includes('\0')) return text.split('\0').filter((l) => l.length > 0);
  return text.split('\n').map((l) => unquoteGitPath(l.replace(/\r$/, ''))).filter((l) => l.length > 0);
}

/**
 * The ids of `ids` whose test no longer exists in the work tree. An id is `path` or
 * `path::name[::name…]` (pytest style; a `[param]` suffix is ignored): it is gone when the file is
 * gone, or when its last name no longer occurs as a word in the file. A text-level check: it sees
 * a test deleted or renamed, not one disabled by other means.
 */
export function missingTestIds(root: string, ids: readonly string[]): string[] {
  const missing: string[] = [];
  for (const id of ids) {
    const [file, ...names] = id.split('::');
    const path = join(root, file!);
    if (!file || !existsSync(path) || !statSync(path).isFile()) {
      missing.push(id);
      continue;
    }
    const last = names.length > 0 ? names[names.length - 1]!.replace(/\[.*\]$/, '') : null;
    if (last === null) continue;
    const escaped = last.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (!new RegExp(`(^|[^A-Za-z0-9_])${escaped}([^A-Za-z0-9_]|$)`).test(readFileSync(path, 'utf8'))) missing.push(id);
  }
  return missing.sort();
}
