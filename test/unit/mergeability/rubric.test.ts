import { describe, expect, it } from 'vitest';
import { createdPaths, gradeChanges } from '../../../src/mergeability/checks.js';
import { unquoteGitPath } from '../../../src/mergeability/workspace.js';
import { allowedGlobsFor, changedLines, draftRubric, testConfigGlobsFor, testGlobsFor, toRubricGlobs } from '../../../src/mergeability/rubric.js';

describe('allowedGlobsFor', () => {
  it('takes each touched top-level directory, a component of a container, and root files by name', () => {
    expect(allowedGlobsFor(['src/a/b.ts', 'src/c.ts', 'packages/core/src/x.ts', 'packages/core/y.ts', 'setup.py', 'docs/[draft].md'])).toEqual([
      'docs/**', 'packages/core/**', 'setup.py', 'src/**',
    ]);
    expect(allowedGlobsFor(['packages/README.md'])).toEqual(['packages/**']);
    expect(allowedGlobsFor(['we*rd.txt'])).toEqual(['we\\*rd.txt']);
  });
});

describe('test globs', () => {
  it('converts configured globs to the rubric dialect', () => {
    expect(toRubricGlobs(['*.spec.{js,ts}', './tests/**', 'test/**'])).toEqual(['**/*.spec.js', '**/*.spec.ts', 'test/**', 'tests/**']);
  });

  it('follows the repository layout, per extension, and falls back to the defaults', () => {
    const tree = ['src/a.ts', 'src/a.test.ts', 'src/b.test.ts', 'pkg/x.go', 'pkg/x_test.go', 'tests/test_m.py', 'm.py', 'vitest.config.ts'];
    expect(testGlobsFor(tree, undefined)).toEqual(['**/*.test.ts', '**/*_test.go', 'tests/**']);
    expect(testGlobsFor(tree, ['spec/**'])).toEqual(['spec/**']);
    expect(testGlobsFor(['main.c'], undefined)).toContain('tests/**');
    expect(testGlobsFor(['index.js', 'test.js', 'index.test-d.ts'], undefined)).toEqual(['test.js']);
    expect(testGlobsFor(['main.c', 'spec/a_spec.rb'], undefined)).toEqual(['spec/**']);
    expect(testConfigGlobsFor(tree)).toEqual(['**/vitest.config.*']);
  });
});

describe('draft rubric and checks', () => {
  const gold = [
    { path: 'src/x.py', status: 'M' as const, added: 3, deleted: 1 },
    { path: 'tests/test_x.py', status: 'A' as const, added: 10, deleted: 0 },
    { path: 'src/logo.png', status: 'A' as const, added: null, deleted: null },
  ];
  const rubric = draftRubric({
    taskId: 't', task: 'forward', repo: 'o/r', base: 'a'.repeat(40), intent: 'x', gold,
    testGlobs: ['tests/**'], testConfigGlobs: ['**/conftest.py'], evidence: [],
  });

  it('states its headroom over the gold change', () => {
    expect(changedLines(gold)).toBe(15);
    expect(rubric.scope).toMatchObject({ allowed_globs: ['src/**', 'tests/**'], max_files: 9, max_changed_lines: 95 });
    expect(rubric.scope.headroom).toEqual({ files: { gold: 3, factor: 2, plus: 3 }, changed_lines: { gold: 15, factor: 3, plus: 50 } });
  });

  it('passes the gold itself and fails a deleted conftest (a test-configuration file)', () => {
    const base = { base: 'a'.repeat(40), ignoredCreated: null, missingTestIds: null, skipped: null };
    expect(gradeChanges(rubric, { ...base, changes: gold }).status).toBe('pass');
    const r = gradeChanges(rubric, { ...base, changes: [{ path: 'tests/conftest.py', status: 'D', added: 0, deleted: 4 }] });
    expect(r.checks.test_integrity).toMatchObject({ status: 'fail', deleted_tests: ['tests/conftest.py'], config_edits: [] });
  });

  it('lists ignored files created by a run', () => {
    expect(createdPaths(['build/a', 'x.log'], ['x.log', 'build/b', 'build/a', '.cache/z'])).toEqual(['.cache/z', 'build/b']);
  });
});

describe('unquoteGitPath', () => {
  it.each([
    ['plain/path.txt', 'plain/path.txt'],
    ['"caf\\303\\251.txt"', 'café.txt'],
    ['"a\\tb\\\\c\\"d"', 'a\tb\\c"d'],
  ])('%s → %s', (quoted, path) => {
    expect(unquoteGitPath(quoted)).toBe(path);
  });
});
