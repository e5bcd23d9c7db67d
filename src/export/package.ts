/**
 * Task packages: what an agent is given for one case, built from a manifest record and the
 * repository's mirror. Gold and grading data go to <out>/grading/<case-id>.json, never inside a
 * package. Each package is built under a temporary name and renamed when complete.
 */
import { ensureBlobsUnder } from '../git/partial.js';
import { closeSync, constants, mkdirSync, openSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { ValidationError } from '../errors.js';
import { runGit, runGitBuffer, streamGit } from '../git/runner.js';
import { parseLsTree } from '../git/workflows.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { addToPackageIndex } from './package-index.js';
import { OBJECTS_DIR, packHistory } from './object-layers.js';
import { canonicalJson } from '../util/canonical.js';
import type { BackwardManifestRecord, ForwardManifestRecord, ManifestRecord } from './read-manifest.js';

export const GRADING_DIR = 'grading';

export const BACKWARD_INSTRUCTIONS =
  'report.md describes a regression. The git repository in repo/ holds the project history up to the moment the ' +
  'report was filed; history_metadata.jsonl lists every commit of it. Find the first bad commit: the commit whose ' +
  'parent does not show the problem and which does. Answer with one line: its full 40-character lowercase hexadecimal SHA.';

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

const HISTORY_LOG_ARGS = ['log', '--format=%H%x00%P%x00%ct%x00%an <%ae>%x00%B%x1e'];

/** The history_metadata.jsonl line of one `git log` record, or null for the empty tail. */
function historyLine(rec: string): string | null {
  const t = rec.replace(/^\n/, '');
  if (t.length === 0) return null;
  const [sha, parents, ct, author, message] = t.split('\0');
  return canonicalJson({
    sha,
    parents: parents ? parents.split(' ').filter((p) => p.length > 0) : [],
    timestamp: new Date(Number(ct) * 1000).toISOString().replace('.000Z', 'Z'),
    author,
    message: message ?? '',
  });
}

/** One line per commit reachable from `rev`: sha, parents, timestamp (committer, ISO), author, message. */
export async function historyMetadata(gitDir: string, rev: string): Promise<string[]> {
  const r = await runGit(gitDir, [...HISTORY_LOG_ARGS, rev, '--']);
  return r.stdout.split('\x1e').map(historyLine).filter((l): l is string => l !== null);
}

/**
 * Streams `git <args>` and writes one JSON line per record (records separated by \x1e; `toLine`
 * returns null for an empty one) to `path`: memory stays bounded by one chunk however long the
 * output. Returns the number of lines written.
 */
export async function writeGitRecords(gitDir: string, args: readonly string[], path: string, toLine: (rec: string) => string | null): Promise<number> {
  const fd = openSync(path, 'w');
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let written = 0;
  const flush = (text: string, final: boolean): void => {
    const records = text.split('\x1e');
    rest = final ? '' : records.pop()!;
    const lines = records.map(toLine).filter((l): l is string => l !== null);
    if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
    written += lines.length;
  };
  try {
    await streamGit(gitDir, args, (chunk) => flush(rest + decoder.write(chunk), false));
    flush(rest + decoder.end(), true);
  } finally {
    closeSync(fd);
  }
  return written;
}

/** historyMetadata written straight to `path` as JSON Lines (the same bytes), streamed from git. */
export function writeHistoryMetadata(gitDir: string, rev: string, path: string): Promise<number> {
  return writeGitRecords(gitDir, [...HISTORY_LOG_ARGS, rev, '--'], path, historyLine);
}

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

/** task.json of a Backward package: the instructions and the inputs it holds. */
export function backwardTaskJson(r: BackwardManifestRecord, instructions: string, inputs: Record<string, string>): string {
  return pretty({
    case_id: r.case_id,
    task: 'backward',
    repo: r.repo,
    instructions,
    inputs,
    answer_format: { lines: 1, pattern: '^[0-9a-f]{40}$', description: 'the full 40-character lowercase hex SHA of the first bad commit' },
  });
}

/** The grading data of a Backward package whose history lists `commits` commits. */
export async function backwardGrading(r: BackwardManifestRecord, mirror: string, cutoffTree: string, commits: number): Promise<BackwardGrading> {
  return {
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
}

/** Backward: repo/ (history up to the cutoff only), history_metadata.jsonl, report.md, task.json. */
export async function packageBackward(r: BackwardManifestRecord, mirror: string, out: string, opts: BackwardPackageOptions = {}): Promise<void> {
  const tmp = start(out, r.case_id);
  try {
    await checkedTreeEntries(mirror, r.cutoff);
    const repoDir = join(tmp, 'repo');
    await runGit('', ['init', '-q', '--initial-branch=main', '--template=', repoDir]);
    const gitDir = join(repoDir, '.git');
    await runGit(gitDir, ['config', 'core.logAllRefUpdates', 'false']);
    await runGit(gitDir, ['config', 'gc.auto', '0']);
    // Exactly the objects reachable from the cutoff, packed from the mirror (shared layers + its own
    // pack): no remote, no other refs, nothing from after the cutoff.
    await packHistory(mirror, gitDir, r.cutoff, r.default_branch, opts.objects === undefined ? join(out, OBJECTS_DIR) : opts.objects, opts.layerCommits);
    await runGit(gitDir, ['update-ref', 'refs/heads/main', r.cutoff]);
    await runGit(gitDir, [`--work-tree=${repoDir}`, 'read-tree', '-u', '--reset', 'HEAD']);
    rmSync(join(gitDir, 'logs'), { recursive: true, force: true });
    const tree = (await runGit(gitDir, ['rev-parse', 'HEAD^{tree}'])).stdout.trim();
    const commits = await writeHistoryMetadata(gitDir, 'HEAD', join(tmp, 'history_metadata.jsonl'));
    writeFileSync(join(tmp, 'report.md'), r.report.endsWith('\n') ? r.report : `${r.report}\n`);
    writeFileSync(join(tmp, 'task.json'), backwardTaskJson(r, BACKWARD_INSTRUCTIONS, { repository: 'repo', history: 'history_metadata.jsonl', report: 'report.md' }));
    finish(out, r.case_id, tmp, await backwardGrading(r, mirror, tree, commits));
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

export function packageCase(r: ManifestRecord, mirror: string, out: string): Promise<void> {
  return r.task === 'backward' ? packageBackward(r, mirror, out) : packageForward(r, mirror, out);
}
