/**
 * `r2v grade-merge`: a rubric's checks over a workspace. Loads and validates the rubric, reads
 * the workspace's changes against the base (src/mergeability/workspace.ts), grades them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { createdPaths, gradeChanges, type GradeReport } from './checks.js';
import { Rubric } from './rubric.js';
import { missingTestIds, openWorkspace, readWorkspace, workspaceCommit } from './workspace.js';

/** Reads and validates a rubric file; a usage error names the file and the first problem. */
export function loadRubric(path: string, flag = '--rubric'): Rubric {
  if (!existsSync(path)) throw new UsageError(`${flag} ${path}: no such file`);
  if (!statSync(path).isFile()) throw new UsageError(`${flag} ${path}: not a file`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${flag} ${path}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = Rubric.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'rubric';
    throw new UsageError(`${flag} ${path}: not a repo_rubric.v1 rubric: ${where}: ${issue.message}`);
  }
  return parsed.data;
}

export interface GradeOptions {
  /** Ignored files listed before the run; without it, created ignored files are not checked. */
  readonly beforeIgnored?: readonly string[];
  readonly skipped?: number;
}

/** Grades the work tree at `dir` against `base` with `rubric`. */
export async function gradeWorkspace(dir: string, base: string, rubric: Rubric, options: GradeOptions = {}): Promise<GradeReport> {
  const ws = await openWorkspace(dir);
  const sha = await workspaceCommit(ws, base);
  const state = await readWorkspace(ws, sha);
  return gradeChanges(rubric, {
    base: sha,
    changes: state.changes,
    ignoredCreated: options.beforeIgnored ? createdPaths(options.beforeIgnored, state.ignored) : null,
    missingTestIds: rubric.tests.list === null ? null : missingTestIds(ws.root, rubric.tests.list),
    skipped: options.skipped ?? null,
  });
}
