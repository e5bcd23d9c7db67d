/**
 * Rubric scaffolds on the grading side of packages: for a task with a gold change (an admitted
 * Forward case, a coupled pair), the gold is applied to its base in a scratch work tree, read with
 * the same code as `r2v grade-merge`, turned into a draft rubric, and graded by it (the oracle
 * row). A scaffold the gold fails is not written; its oracle row records why.
 *
 *   <out>/grading/rubrics/<task-id>/rubric.json   the draft (only when the gold passes)
 *   <out>/grading/rubrics/<task-id>/oracle.json   the oracle row, always
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GRADING_DIR } from '../export/package.js';
import { listTree } from '../git/forward.js';
import { runGit, runGitBuffer } from '../git/runner.js';
import { canonicalJson } from '../util/canonical.js';
import { gradeChanges, type GradeReport } from './checks.js';
import { draftRubric, testConfigGlobsFor, testGlobsFor, type EvidenceCandidate, type Rubric } from './rubric.js';
import { missingTestIds, readWorkspace } from './workspace.js';

export const RUBRICS_DIR = 'rubrics';

export interface OracleRow {
  readonly task_id: string;
  readonly task: 'forward' | 'pair';
  readonly emitted: boolean;
  /** Why no rubric was written (null when it was). */
  readonly reason: string | null;
  readonly report: GradeReport | null;
}

export interface RubricTask {
  readonly taskId: string;
  readonly task: 'forward' | 'pair';
  readonly repo: string;
  readonly base: string;
  readonly intent: string;
  /** The gold change as patches to apply to base in order (binary, full index); null when not recorded. */
  readonly patches: readonly Buffer[] | null;
  /** The repository's configured test globs (repos[].test_globs), if any. */
  readonly testGlobs?: readonly string[];
  readonly evidence?: readonly EvidenceCandidate[];
  /** Test ids known to be exercised by the gold (a pair's fail-to-pass tests); those found in the gold's files become tests.list. */
  readonly testIds?: readonly string[];
}

const pretty = (v: unknown): string => `${JSON.stringify(JSON.parse(canonicalJson(v)), null, 2)}\n`;

/** The binary patch of a PR: its merge base with `base` → `head`, no renames. */
export async function prPatch(mirror: string, base: string, head: string): Promise<Buffer> {
  const args = ['diff', '--binary', '--full-index', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', `${base}...${head}`, '--'];
  return (await runGitBuffer(mirror, args)).stdout;
}

/**
 * A scratch work tree at `base` (objects borrowed from the mirror, which is never written) with
 * the patches applied; null and the reason when a patch does not apply.
 */
async function goldWorkTree(mirror: string, base: string, patches: readonly Buffer[], dir: string): Promise<string | null> {
  const root = join(dir, 'work');
  mkdirSync(root);
  await runGit('', ['init', '-q', '--template=', root]);
  const gitDir = join(root, '.git');
  mkdirSync(join(gitDir, 'objects', 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), `${resolve(mirror, 'objects')}\n`); // absolute: a relative entry is read from objects/
  await runGit(gitDir, [`--work-tree=${root}`, 'read-tree', '-u', '--reset', base], { cwd: root });
  for (const [i, patch] of patches.entries()) {
    if (patch.length === 0) continue;
    const file = join(dir, `gold-${i}.patch`);
    writeFileSync(file, patch);
    // --3way: a later patch whose context an earlier one moved still merges (as the pair miner's merge did).
    const r = await runGit(gitDir, [`--work-tree=${root}`, 'apply', '--3way', '--whitespace=nowarn', file], { cwd: root, allowExit: [1, 128] });
    if (r.exitCode !== 0) return null;
  }
  return root;
}

function failureReason(report: GradeReport): string {
  const s = report.checks.scope;
  const t = report.checks.test_integrity;
  const parts: string[] = [];
  if (s.denied.length > 0) parts.push(`gold touches denied paths: ${s.denied.join(', ')}`);
  if (s.outside_allowed.length > 0) parts.push(`gold touches paths outside allowed_globs: ${s.outside_allowed.join(', ')}`);
  if (s.files > s.max_files || s.changed_lines > s.max_changed_lines) parts.push('gold exceeds the size limits');
  if (t.deleted_tests.length > 0) parts.push(`gold deletes test files: ${t.deleted_tests.join(', ')}`);
  if ((t.removed_test_ids?.length ?? 0) > 0) parts.push(`gold removes listed tests: ${t.removed_test_ids!.join(', ')}`);
  return parts.join('; ') || 'gold fails the rubric';
}

/** Drafts the rubric of one task from its gold change and runs the oracle row. */
export async function draftWithOracle(task: RubricTask, mirror: string): Promise<{ rubric: Rubric | null; oracle: OracleRow }> {
  if (task.patches === null) {
    return { rubric: null, oracle: { task_id: task.taskId, task: task.task, emitted: false, reason: 'the gold change is not recorded (no head commit)', report: null } };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'r2v-rubric-'));
  try {
    const root = await goldWorkTree(mirror, task.base, task.patches, scratch);
    if (root === null) {
      return { rubric: null, oracle: { task_id: task.taskId, task: task.task, emitted: false, reason: 'the gold change does not apply to its base', report: null } };
    }
    const state = await readWorkspace({ root, gitDir: join(root, '.git') }, task.base);
    if (state.changes.length === 0) {
      return { rubric: null, oracle: { task_id: task.taskId, task: task.task, emitted: false, reason: 'the gold change is empty', report: null } };
    }
    const tree = await listTree(mirror, task.base);
    const notFound = new Set(missingTestIds(root, task.testIds ?? []));
    const testList = (task.testIds ?? []).filter((id) => !notFound.has(id));
    const rubric = draftRubric({
      taskId: task.taskId,
      task: task.task,
      repo: task.repo,
      base: task.base,
      intent: task.intent,
      gold: state.changes,
      testGlobs: testGlobsFor(tree, task.testGlobs),
      testConfigGlobs: testConfigGlobsFor(tree),
      evidence: task.evidence ?? [],
      testList,
    });
    const missing = rubric.tests.list === null ? null : missingTestIds(root, rubric.tests.list);
    const report = gradeChanges(rubric, { base: task.base, changes: state.changes, ignoredCreated: [], missingTestIds: missing, skipped: null });
    const passed = report.status !== 'fail';
    return {
      rubric: passed ? rubric : null,
      oracle: { task_id: task.taskId, task: task.task, emitted: passed, reason: passed ? null : failureReason(report), report },
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Writes the scaffold and oracle row of one task under `<out>/grading/rubrics/<task-id>/` (replacing what was there). */
export async function emitRubric(task: RubricTask, mirror: string, out: string): Promise<OracleRow> {
  if (!/^[A-Za-z0-9._-]+$/.test(task.taskId) || task.taskId.startsWith('.')) throw new Error(`task id ${JSON.stringify(task.taskId)} is not usable as a directory name`);
  const { rubric, oracle } = await draftWithOracle(task, mirror);
  const parent = join(out, GRADING_DIR, RUBRICS_DIR);
  mkdirSync(parent, { recursive: true });
  const tmp = join(parent, `.${task.taskId}.partial`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  if (rubric) writeFileSync(join(tmp, 'rubric.json'), pretty(rubric));
  writeFileSync(join(tmp, 'oracle.json'), pretty(oracle));
  const dest = join(parent, task.taskId);
  rmSync(dest, { recursive: true, force: true });
  renameSync(tmp, dest);
  return oracle;
}
