/**
 * The deterministic checks of a rubric over a workspace's changes: scope (globs and size limits)
 * and test integrity (no test or test-configuration file deleted, configuration edits sent to
 * review, listed test ids kept, no more skipped tests than the gold's run). Pure.
 */
import { globMatcher } from './glob.js';
import { changedLines, type Rubric } from './rubric.js';
import type { FileChange } from './workspace.js';

export type CheckStatus = 'pass' | 'fail' | 'review';

export interface ScopeCheck {
  readonly status: 'pass' | 'fail';
  /** Changed paths (both sides of a move) matching no allowed glob. */
  readonly outside_allowed: string[];
  /** Changed paths matching a denied glob. */
  readonly denied: string[];
  /** Ignored files the run created that match a denied glob (null: no before-run list given). */
  readonly denied_ignored: string[] | null;
  readonly files: number;
  readonly max_files: number;
  readonly changed_lines: number;
  readonly max_changed_lines: number;
}

export interface TestIntegrityCheck {
  readonly status: CheckStatus;
  /** Test or test-configuration files deleted: a failure. */
  readonly deleted_tests: string[];
  /** Test-configuration files added or edited: sent to review, not failed. */
  readonly config_edits: string[];
  /** Ids of tests.list no longer present (null: no list configured). */
  readonly removed_test_ids: string[] | null;
  readonly skipped: number | null;
  readonly oracle_skipped: number | null;
}

export interface GradeReport {
  readonly task_id: string;
  readonly base: string;
  readonly status: CheckStatus;
  readonly checks: { readonly scope: ScopeCheck; readonly test_integrity: TestIntegrityCheck };
  readonly changes: readonly { path: string; status: string; added: number | null; deleted: number | null }[];
  readonly ignored_created: string[] | null;
}

export interface GradeInput {
  readonly base: string;
  readonly changes: readonly FileChange[];
  /** Ignored files present after the run but not before; null when no before-run list was given. */
  readonly ignoredCreated: readonly string[] | null;
  /** Ids of rubric.tests.list missing from the workspace (null when the rubric has no list). */
  readonly missingTestIds: readonly string[] | null;
  /** Skipped tests of the run under grading, when known. */
  readonly skipped: number | null;
}

/** Ignored paths present after a run that were not there before, sorted. */
export function createdPaths(before: readonly string[], after: readonly string[]): string[] {
  const had = new Set(before);
  return after.filter((p) => !had.has(p)).sort();
}

export function gradeChanges(rubric: Rubric, input: GradeInput): GradeReport {
  const allowed = globMatcher(rubric.scope.allowed_globs);
  const denied = globMatcher(rubric.scope.denied_globs);
  const isTest = globMatcher(rubric.tests.globs);
  const isTestConfig = globMatcher(rubric.tests.config_globs);
  const paths = input.changes.map((c) => c.path);

  const lines = changedLines(input.changes);
  const outsideAllowed = paths.filter((p) => !allowed(p));
  const deniedPaths = paths.filter(denied);
  const deniedIgnored = input.ignoredCreated === null ? null : input.ignoredCreated.filter(denied);
  const scopeFails =
    outsideAllowed.length > 0 ||
    deniedPaths.length > 0 ||
    (deniedIgnored?.length ?? 0) > 0 ||
    input.changes.length > rubric.scope.max_files ||
    lines > rubric.scope.max_changed_lines;
  const scope: ScopeCheck = {
    status: scopeFails ? 'fail' : 'pass',
    outside_allowed: outsideAllowed,
    denied: deniedPaths,
    denied_ignored: deniedIgnored,
    files: input.changes.length,
    max_files: rubric.scope.max_files,
    changed_lines: lines,
    max_changed_lines: rubric.scope.max_changed_lines,
  };

  const deletedTests = input.changes.filter((c) => c.status === 'D' && (isTest(c.path) || isTestConfig(c.path))).map((c) => c.path);
  const configEdits = input.changes.filter((c) => c.status !== 'D' && isTestConfig(c.path)).map((c) => c.path);
  const removed = input.missingTestIds === null ? null : [...input.missingTestIds];
  const oracleSkipped = rubric.tests.oracle_skipped;
  const moreSkipped = input.skipped !== null && oracleSkipped !== null && input.skipped > oracleSkipped;
  const testsFail = deletedTests.length > 0 || (removed?.length ?? 0) > 0 || moreSkipped;
  const testIntegrity: TestIntegrityCheck = {
    status: testsFail ? 'fail' : configEdits.length > 0 ? 'review' : 'pass',
    deleted_tests: deletedTests,
    config_edits: configEdits,
    removed_test_ids: removed,
    skipped: input.skipped,
    oracle_skipped: oracleSkipped,
  };

  const status: CheckStatus = scope.status === 'fail' || testIntegrity.status === 'fail' ? 'fail' : testIntegrity.status === 'review' ? 'review' : 'pass';
  return {
    task_id: rubric.task_id,
    base: input.base,
    status,
    checks: { scope, test_integrity: testIntegrity },
    changes: input.changes.map((c) => ({ path: c.path, status: c.status, added: c.added, deleted: c.deleted })),
    ignored_created: input.ignoredCreated === null ? null : [...input.ignoredCreated],
  };
}

/** One line per check for a terminal: status, name and the offending paths. */
export function formatReport(r: GradeReport): string[] {
  const s = r.checks.scope;
  const t = r.checks.test_integrity;
  const lines = [`${r.task_id}: ${r.status}`];
  lines.push(`scope\t${s.status}\tfiles ${s.files}/${s.max_files}\tchanged lines ${s.changed_lines}/${s.max_changed_lines}`);
  for (const p of s.outside_allowed) lines.push(`  outside allowed_globs\t${p}`);
  for (const p of s.denied) lines.push(`  denied\t${p}`);
  for (const p of s.denied_ignored ?? []) lines.push(`  denied (ignored file created)\t${p}`);
  lines.push(`test_integrity\t${t.status}`);
  for (const p of t.deleted_tests) lines.push(`  test file deleted\t${p}`);
  for (const p of t.config_edits) lines.push(`  test configuration edited (review)\t${p}`);
  for (const id of t.removed_test_ids ?? []) lines.push(`  test id removed\t${id}`);
  if (t.skipped !== null && t.oracle_skipped !== null && t.skipped > t.oracle_skipped) lines.push(`  skipped ${t.skipped} > oracle ${t.oracle_skipped}`);
  return lines;
}
