/**
 * Task packages: what an agent is given for one case, built from a manifest record and the
 * repository's mirror. Gold and grading data go to <out>/grading/<case-id>.json, never inside a
 * package. Each package is built under a temporary name and renamed when complete.
 */
import { ensureBlobsUnder } from '../git/partial.js';
import { closeSync, constants, mkdirSync, openSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { ValidationError } from '../errors.js';
import { runGit, runGitBuffer } from '../git/runner.js';
import { parseLsTree } from '../git/workflows.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { addToPackageIndex } from './package-index.js';
import { HISTORY_DIR, OBJECTS_DIR, packHistory, type HistoryPart } from './object-layers.js';
export { historyMetadata, writeGitRecords, writeHistoryMetadata } from './history-metadata.js';
import { canonicalJson } from '../util/canonical.js';
import type { BackwardManifestRecord, ForwardManifestRecord, ManifestRecord } from './read-manifest.js';

export const GRADING_DIR = 'grading';

export const BACKWARD_INSTRUCTIONS =
  'report.md describes a regression. The git repository in repo/ holds the project history up to the moment the ' +
  'report was filed; history/ lists every commit of it (JSON Lines, one commit per line, in the parts task.json names ' +
  'under "history"). Find the first bad commit: the commit whose parent does not show the problem and which does. ' +
  'Answer with one line: its full 40-character lowercase hexadecimal SHA.';

/** Added to the instructions of a package built without a work tree. */
export const NO_WORK_TREE_NOTE = 'repo/ holds only the git directory: `git -C repo reset -q --hard` checks out its files.';

/** What repo/ of a Backward package holds beside .git: the files at the cutoff (and an index), or nothing. */
export const WORK_TREE_MODES = ['checkout', 'none'] as const;
export type WorkTreeMode = (typeof WORK_TREE_MODES)[number];

/** How a harness materializes a package built with `--work-tree none` (in its own copy of the package). */
export const MATERIALIZE_COMMAND = 'git -C repo reset -q --hard';

export const FORWARD_INSTRUCTIONS =
  'issue.md is a change request against the repository snapshot in tree/. A pull request implementing it is opened ' +
  'against the branch named in context.json. Predict which workflow files under .github/workflows/ a pull_request ' +
  'event with the action in context.json would activate for that pull request. Answer with one JSON object ' +
  '{"case_id": "...", "activated_workflows": ["<path>", ...]}; an empty list is a valid answer.';

export interface BackwardGrading {
  case_id: string;
  task: 'backward';
  repo: string;
  gold: string;
  cutoff: string;
  cutoff_tree: string;
  /** The first commit of the default branch's first-parent line after the cutoff, when the mirror has one. */
  after_cutoff: string | null;
  commits: number;
  /** What repo/ holds beside .git (absent in grading data written before the option: `checkout`). */
  work_tree?: WorkTreeMode;
}

export interface ForwardGrading {
  case_id: string;
  task: 'forward';
  repo: string;
  gold: string[];
  evaluator: string;
  base: string;
  base_tree: string;
  head: string | null;
  pull: number;
  pr_url: string | null;
  /** Every file of S_t: path → "<mode> <blob id>". */
  base_files: Record<string, string>;
}

export type Grading = BackwardGrading | ForwardGrading;

const pretty = (v: unknown): string => `${JSON.stringify(JSON.parse(canonicalJson(v)), null, 2)}\n`;

async function firstAfter(mirror: string, cutoff: string, branch: string | null): Promise<string | null> {
  if (!branch) return null;
  const r = await runGit(mirror, ['rev-list', '--first-parent', '--ancestry-path', '--reverse', `${cutoff}..refs/heads/${branch}`, '--'], {
    allowExit: [128],
  });
  if (r.exitCode !== 0) return null;
  return r.stdout.split('\n').find((l) => l.length > 0) ?? null;
}

function start(out: string, caseId: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(caseId) || caseId.startsWith('.')) throw new Error(`case id ${JSON.stringify(caseId)} is not usable as a directory name`);
  mkdirSync(join(out, GRADING_DIR), { recursive: true });
  const tmp = join(out, `.${caseId}.partial`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  return tmp;
}

function finish(out: string, caseId: string, tmp: string, grading: Grading): void {
  const dest = join(out, caseId);
  rmSync(dest, { recursive: true, force: true });
  renameSync(tmp, dest);
  writeFileAtomic(join(out, GRADING_DIR, `${caseId}.json`), pretty(grading));
  addToPackageIndex(out, caseId);
}

/** task.json of a Backward package: the instructions and the inputs it holds (and what `extra` adds). */
export function backwardTaskJson(r: BackwardManifestRecord, instructions: string, inputs: Record<string, string>, extra: Record<string, unknown> = {}): string {
  return pretty({
    ...extra,
    case_id: r.case_id,
    task: 'backward',
    repo: r.repo,
    instructions,
    inputs,
    answer_format: { lines: 1, pattern: '^[0-9a-f]{40}$', description: 'the full 40-character lowercase hex SHA of the first bad commit' },
  });
}

/** The grading data of a Backward package whose history lists `commits` commits. */
export async function backwardGrading(r: BackwardManifestRecord, mirror: string, cutoffTree: string, commits: number, workTree?: WorkTreeMode): Promise<BackwardGrading> {
  return {
    ...(workTree ? { work_tree: workTree } : {}),
    case_id: r.case_id,
    task: 'backward',
    repo: r.repo,
    gold: r.gold,
    cutoff: r.cutoff,
    cutoff_tree: r.digests.cutoff_tree ?? cutoffTree,
    after_cutoff: await firstAfter(mirror, r.cutoff, r.default_branch),
    commits,
  };
}

export interface BackwardPackageOptions {
  /**
   * The shared layer store (see object-layers.ts): default `<out>/.objects`, so the packages of
   * one repository share their older history on disk; null packs each history whole.
   */
  readonly objects?: string | null;
  /** First-parent commits per shared layer (tests use small ones). */
  readonly layerCommits?: number;
  /**
   * `checkout` (default): repo/ holds the files at the cutoff and an index, ready to use.
   * `none`: repo/ holds only .git; task.json says how to check the files out
   * (MATERIALIZE_COMMAND), which a harness does in its own copy of the package.
   */
  readonly workTree?: WorkTreeMode;
}

/** task.json's description of a package's history parts and repository. */
export function backwardLayout(parts: readonly HistoryPart[], workTree: WorkTreeMode): Record<string, unknown> {
  return {
    history: {
      format: 'JSON Lines, one commit per line: sha, parents, timestamp (committer time, UTC), author, message',
      order: 'parts oldest first; within a part newest first (git log order); every commit up to the cutoff in exactly one part',
      parts,
    },
    repository: { path: 'repo', work_tree: workTree, ...(workTree === 'none' ? { materialize: MATERIALIZE_COMMAND } : {}) },
  };
}

/**
 * Backward: repo/ (history up to the cutoff only; its files checked out unless `workTree` is
 * `none`), history/ (the commit metadata in parts), report.md, task.json.
 */
export async function packageBackward(r: BackwardManifestRecord, mirror: string, out: string, opts: BackwardPackageOptions = {}): Promise<void> {
  const workTree = opts.workTree ?? 'checkout';
  const tmp = start(out, r.case_id);
  try {
    await checkedTreeEntries(mirror, r.cutoff);
    const repoDir = join(tmp, 'repo');
    await runGit('', ['init', '-q', '--initial-branch=main', '--template=', repoDir]);
    const gitDir = join(repoDir, '.git');
    await runGit(gitDir, ['config', 'core.logAllRefUpdates', 'false']);
    await runGit(gitDir, ['config', 'gc.auto', '0']);
    // Exactly the objects and commit lines reachable from the cutoff, from the mirror (shared
    // layers + its own pack and part): no remote, no other refs, nothing from after the cutoff.
    const store = opts.objects === undefined ? join(out, OBJECTS_DIR) : opts.objects;
    const parts = await packHistory(mirror, gitDir, join(tmp, HISTORY_DIR), r.cutoff, r.default_branch, store, opts.layerCommits);
    await runGit(gitDir, ['update-ref', 'refs/heads/main', r.cutoff]);
    if (workTree === 'checkout') await runGit(gitDir, [`--work-tree=${repoDir}`, 'read-tree', '-u', '--reset', 'HEAD']);
    rmSync(join(gitDir, 'logs'), { recursive: true, force: true });
    const tree = (await runGit(gitDir, ['rev-parse', 'HEAD^{tree}'])).stdout.trim();
    const commits = parts.reduce((n, p) => n + p.commits, 0);
    writeFileSync(join(tmp, 'report.md'), r.report.endsWith('\n') ? r.report : `${r.report}\n`);
    const instructions = workTree === 'none' ? `${BACKWARD_INSTRUCTIONS} ${NO_WORK_TREE_NOTE}` : BACKWARD_INSTRUCTIONS;
    writeFileSync(
      join(tmp, 'task.json'),
      backwardTaskJson(r, instructions, { repository: 'repo', history: HISTORY_DIR, report: 'report.md' }, backwardLayout(parts, workTree)),
    );
    finish(out, r.case_id, tmp, await backwardGrading(r, mirror, tree, commits, workTree));
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Why an entry name from an untrusted tree cannot be written, or null when it can. */
export function entryNameProblem(name: string): string | null {
  if (name.length === 0) return 'is empty';
  if (name === '.' || name === '..') return 'is a path step';
  if (name.includes('/')) return 'contains /';
  if (name.includes('\0')) return 'contains NUL';
  if (name.toLowerCase() === '.git') return 'is a git directory';
  return null;
}

interface TreeEntry {
  readonly mode: string;
  readonly type: string;
  readonly oid: string;
  readonly path: string;
}

/**
 * Every entry of `rev`'s tree at any depth (trees included, parents before children), checked:
 * each name is usable (see entryNameProblem), each path occurs once (a symlink and a directory
 * of the same name are refused), and each path's parent is a listed tree (an entry whose name
 * holds a slash has no such parent).
 */
export async function checkedTreeEntries(gitDir: string, rev: string): Promise<TreeEntry[]> {
  const entries = parseLsTree((await runGit(gitDir, ['ls-tree', '-r', '-t', '-z', '--full-tree', `${rev}^{tree}`])).stdout);
  const trees = new Set<string>();
  const seen = new Set<string>();
  const refuse = (path: string, why: string): never => {
    throw new ValidationError(`${rev}: tree entry ${JSON.stringify(path)} ${why}; refusing to write it`);
  };
  for (const e of entries) {
    const cut = e.path.lastIndexOf('/');
    const name = e.path.slice(cut + 1);
    const problem = entryNameProblem(name) ?? (e.path.split('/').some((c) => entryNameProblem(c) !== null) ? 'has an unusable path step' : null);
    if (problem) refuse(e.path, problem);
    if (seen.has(e.path)) refuse(e.path, 'occurs twice (for instance a symlink and a directory)');
    seen.add(e.path);
    if (cut >= 0 && !trees.has(e.path.slice(0, cut))) refuse(e.path, 'has a name containing /');
    if (e.type === 'tree') trees.add(e.path);
  }
  return entries;
}

/**
 * Writes the blobs of `rev`'s tree under `dir` (no .git, no attribute processing), returns
 * path → "mode oid". Trees come from untrusted remotes, so nothing here follows a symlink:
 * directories are created one at a time and must not exist yet, files and symlinks are created
 * exclusively (O_EXCL, O_NOFOLLOW), and every parent is checked to resolve to its place under `dir`.
 */
export async function writeTree(mirror: string, rev: string, dir: string): Promise<Record<string, string>> {
  const entries = await checkedTreeEntries(mirror, rev);
  const root = realpathSync(dir);
  const inside = (rel: string): string => {
    const abs = join(root, rel);
    if (abs !== root && !abs.startsWith(root + sep)) throw new ValidationError(`${rev}: tree entry ${JSON.stringify(rel)} leads outside the output directory`);
    return abs;
  };
  const checkParent = (rel: string): void => {
    const parent = inside(dirname(rel) === '.' ? '' : dirname(rel));
    if (realpathSync(parent) !== parent) throw new ValidationError(`${rev}: tree entry ${JSON.stringify(rel)} would be written through a symlink`);
  };
  for (const e of entries) {
    if (e.type !== 'tree') continue;
    checkParent(e.path);
    mkdirSync(inside(e.path)); // throws EEXIST when anything (a symlink included) is already there
  }
  const files: Record<string, string> = {};
  const blobs = entries.filter((e) => e.type === 'blob');
  await ensureBlobsUnder(mirror, rev, ''); // a partial mirror: the tree's blobs in one fetch, not one per object
  for (let i = 0; i < blobs.length; i += 500) {
    const chunk = blobs.slice(i, i + 500);
    const r = await runGitBuffer(mirror, ['cat-file', '--batch'], { input: chunk.map((b) => `${b.oid}\n`).join('') });
    let pos = 0;
    for (const b of chunk) {
      const nl = r.stdout.indexOf(10, pos);
      const size = Number(r.stdout.subarray(pos, nl).toString('utf8').split(' ')[2]);
      const body = r.stdout.subarray(nl + 1, nl + 1 + size);
      pos = nl + 1 + size + 1;
      checkParent(b.path);
      const path = inside(b.path);
      if (b.mode === '120000') symlinkSync(body.toString('utf8'), path);
      else {
        const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, b.mode === '100755' ? 0o755 : 0o644);
        try {
          for (let off = 0; off < body.length; ) off += writeSync(fd, body, off);
        } finally {
          closeSync(fd);
        }
      }
      files[b.path] = `${b.mode === '100755' ? '100755' : b.mode === '120000' ? '120000' : '100644'} ${b.oid}`;
    }
  }
  return files;
}

/** Forward: tree/ (S_t without .git), issue.md, context.json, task.json. */
export async function packageForward(r: ForwardManifestRecord, mirror: string, out: string): Promise<void> {
  const tmp = start(out, r.case_id);
  try {
    const treeDir = join(tmp, 'tree');
    mkdirSync(treeDir);
    const files = await writeTree(mirror, r.base, treeDir);
    const baseTree = (await runGit(mirror, ['rev-parse', `${r.base}^{tree}`])).stdout.trim();
    writeFileSync(join(tmp, 'issue.md'), r.issue_text.endsWith('\n') ? r.issue_text : `${r.issue_text}\n`);
    writeFileSync(join(tmp, 'context.json'), pretty(r.context));
    writeFileSync(
      join(tmp, 'task.json'),
      pretty({
        case_id: r.case_id,
        task: 'forward',
        repo: r.repo,
        instructions: FORWARD_INSTRUCTIONS,
        inputs: { tree: 'tree', issue: 'issue.md', context: 'context.json' },
        answer_format: { case_id: r.case_id, activated_workflows: ['.github/workflows/<file>'] },
      }),
    );
    finish(out, r.case_id, tmp, {
      case_id: r.case_id,
      task: 'forward',
      repo: r.repo,
      gold: [...r.gold].sort(),
      evaluator: r.evaluator,
      base: r.base,
      base_tree: r.digests.base_tree ?? baseTree,
      head: r.head,
      pull: r.pull,
      pr_url: r.source.pr_url,
      base_files: files,
    });
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

export function packageCase(r: ManifestRecord, mirror: string, out: string, opts: BackwardPackageOptions = {}): Promise<void> {
  return r.task === 'backward' ? packageBackward(r, mirror, out, opts) : packageForward(r, mirror, out);
}
