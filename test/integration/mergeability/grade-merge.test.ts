import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliCaptured as cli } from '../../support/cli.js';
import { makeRepo, tempDir, type TestRepo } from '../../support/make-repo.js';
import { DENIED_GLOBS, type Rubric } from '../../../src/mergeability/rubric.js';
import { sha256 } from '../../../src/util/canonical.js';

const TEST_FILE = 'import app\n\ndef test_one():\n    assert app.main() == 1\n\ndef test_two():\n    assert app.util() == 2\n';

async function baseRepo(): Promise<{ repo: TestRepo; base: string }> {
  const repo = await makeRepo();
  const base = await repo.commit('base', {
    files: {
      'src/app/main.py': 'def main():\n    return 1\n',
      'src/app/util.py': 'def util():\n    return 2\n',
      'tests/test_main.py': TEST_FILE,
      'pytest.ini': '[pytest]\ntestpaths = tests\n',
      'docs/guide.md': '# Guide\n',
      '.github/workflows/ci.yml': 'on: push\n',
      '.gitignore': 'build/\n.github/cache/\n',
    },
  });
  return { repo, base };
}

function rubric(base: string, over: { scope?: Partial<Rubric['scope']>; tests?: Partial<Rubric['tests']> } = {}): Rubric {
  return {
    schema: 'repo_rubric.v1',
    status: 'draft',
    task_id: 'acme_app__7__0000abcd',
    task: 'forward',
    repo: 'acme/app',
    base,
    intent: 'main() should return one',
    scope: { allowed_globs: ['src/app/**', 'tests/**'], denied_globs: [...DENIED_GLOBS], max_files: 10, max_changed_lines: 200, ...over.scope },
    tests: { globs: ['tests/**'], config_globs: ['**/pytest.ini', '**/conftest.py'], list: null, oracle_skipped: null, ...over.tests },
    blockers: [],
    non_blockers: [],
    evidence_candidates: [],
  };
}

async function grade(repo: TestRepo, base: string, r: Rubric, extra: string[] = []) {
  const dir = await tempDir('r2v-rubric-');
  const path = join(dir, 'rubric.json');
  writeFileSync(path, JSON.stringify(r));
  const res = await cli(['grade-merge', '--workspace', repo.dir, '--base', base, '--rubric', path, '--json', ...extra], dir);
  return { ...res, report: res.stdout ? JSON.parse(res.stdout) : null };
}

const write = (repo: TestRepo, path: string, text: string): void => {
  mkdirSync(join(repo.dir, path, '..'), { recursive: true });
  writeFileSync(join(repo.dir, path), text);
};

describe('r2v grade-merge', () => {
  it('passes an in-scope change, sees untracked files through a scratch index, and leaves the workspace index untouched', async () => {
    const { repo, base } = await baseRepo();
    await repo.commit('edit', { files: { 'src/app/main.py': 'def main():\n    return 1  # one\n' } });
    write(repo, 'src/app/new.py', 'X = 1\nY = 2\n');
    write(repo, 'src/app/util.py', 'def util():\n    return 2\n\n');
    const indexBefore = sha256(readFileSync(join(repo.dir, '.git/index')));
    const statusBefore = await repo.git(['status', '--porcelain']);

    const { code, report } = await grade(repo, base, rubric(base));
    expect(code).toBe(0);
    expect(report.status).toBe('pass');
    expect(report.base).toBe(base);
    expect(report.changes).toEqual([
      { path: 'src/app/main.py', status: 'M', added: 1, deleted: 1 },
      { path: 'src/app/new.py', status: 'A', added: 2, deleted: 0 },
      { path: 'src/app/util.py', status: 'M', added: 1, deleted: 0 },
    ]);
    expect(report.checks.scope).toMatchObject({ status: 'pass', files: 3, changed_lines: 5, outside_allowed: [], denied: [], denied_ignored: null });

    expect(sha256(readFileSync(join(repo.dir, '.git/index')))).toBe(indexBefore);
    expect(await repo.git(['status', '--porcelain'])).toBe(statusBefore);
    expect(statusBefore).toContain('?? src/app/new.py');
  });

  it('checks both paths of a move (no rename detection): the old path under .github is denied, the new one outside scope', async () => {
    const { repo, base } = await baseRepo();
    await repo.git(['mv', 'src/app/util.py', 'docs/util.py']);
    mkdirSync(join(repo.dir, 'src/app/ci'), { recursive: true });
    renameSync(join(repo.dir, '.github/workflows/ci.yml'), join(repo.dir, 'src/app/ci/ci.yml'));

    const { code, report } = await grade(repo, base, rubric(base));
    expect(code).toBe(3);
    expect(report.status).toBe('fail');
    expect(report.changes.map((c: { path: string; status: string }) => `${c.status} ${c.path}`)).toEqual([
      'D .github/workflows/ci.yml',
      'A docs/util.py',
      'D src/app/util.py',
      'A src/app/ci/ci.yml',
    ].sort((a, b) => (a.slice(2) < b.slice(2) ? -1 : 1)));
    expect(report.checks.scope.outside_allowed).toEqual(['.github/workflows/ci.yml', 'docs/util.py']);
    expect(report.checks.scope.denied).toEqual(['.github/workflows/ci.yml']);
  });

  it('lists ignored files the run created and fails those under a denied glob', async () => {
    const { repo, base } = await baseRepo();
    write(repo, 'build/old.o', 'x');
    write(repo, 'build/café "1".o', 'x');
    const before = await repo.git(['ls-files', '--others', '--ignored', '--exclude-standard']);
    expect(before).toContain('"build/caf\\303\\251 \\"1\\".o"'); // git quotes it; the reader unquotes it
    const list = join(await tempDir(), 'before.txt');
    writeFileSync(list, `${before}\n`);
    write(repo, 'build/new.o', 'y');
    write(repo, '.github/cache/state.json', '{}');

    const { code, report } = await grade(repo, base, rubric(base), ['--before-ignored', list]);
    expect(code).toBe(3);
    expect(report.changes).toEqual([]);
    expect(report.ignored_created).toEqual(['.github/cache/state.json', 'build/new.o']);
    expect(report.checks.scope.denied_ignored).toEqual(['.github/cache/state.json']);

    const without = await grade(repo, base, rubric(base));
    expect(without.code).toBe(0);
    expect(without.report.ignored_created).toBeNull();
  });

  it('fails a deleted test file', async () => {
    const { repo, base } = await baseRepo();
    rmSync(join(repo.dir, 'tests/test_main.py'));
    const { code, report } = await grade(repo, base, rubric(base));
    expect(code).toBe(3);
    expect(report.checks.test_integrity).toMatchObject({ status: 'fail', deleted_tests: ['tests/test_main.py'] });
    expect(report.checks.scope.status).toBe('pass');
  });

  it('sends a test disabled by a configuration edit to review without failing', async () => {
    const { repo, base } = await baseRepo();
    write(repo, 'pytest.ini', '[pytest]\ntestpaths = tests\naddopts = --deselect tests/test_main.py::test_two\n');
    const r = rubric(base, { scope: { allowed_globs: ['src/app/**', 'tests/**', 'pytest.ini'] } });
    const { code, report } = await grade(repo, base, r);
    expect(code).toBe(0);
    expect(report.status).toBe('review');
    expect(report.checks.test_integrity).toMatchObject({ status: 'review', config_edits: ['pytest.ini'], deleted_tests: [] });
  });

  it('fails when a listed test id is removed, when more tests are skipped than the oracle’s run, and past the size limits', async () => {
    const { repo, base } = await baseRepo();
    write(repo, 'tests/test_main.py', TEST_FILE.replace(/def test_two[\s\S]*$/, ''));
    const listed = rubric(base, { tests: { list: ['tests/test_main.py::test_one', 'tests/test_main.py::test_two[a-1]', 'tests/test_gone.py'], oracle_skipped: 1 } });
    const a = await grade(repo, base, listed, ['--skipped', '1']);
    expect(a.report.checks.test_integrity.removed_test_ids).toEqual(['tests/test_gone.py', 'tests/test_main.py::test_two[a-1]']);
    expect(a.report.checks.test_integrity.status).toBe('fail');

    const skipped = await grade(repo, base, rubric(base, { tests: { oracle_skipped: 1 } }), ['--skipped', '2']);
    expect(skipped.report.checks.test_integrity).toMatchObject({ status: 'fail', skipped: 2, oracle_skipped: 1, removed_test_ids: null });
    expect((await grade(repo, base, rubric(base, { tests: { oracle_skipped: 1 } }), ['--skipped', '1'])).code).toBe(0);

    const small = await grade(repo, base, rubric(base, { scope: { max_changed_lines: 1 } }));
    expect(small.report.checks.scope).toMatchObject({ status: 'fail', changed_lines: 2, max_changed_lines: 1 });
  });

  it('prints one line per check without --json', async () => {
    const { repo, base } = await baseRepo();
    write(repo, 'docs/guide.md', '# Guide\nmore\n');
    const dir = await tempDir();
    writeFileSync(join(dir, 'rubric.json'), JSON.stringify(rubric(base)));
    const r = await cli(['grade-merge', '--workspace', repo.dir, '--base', base, '--rubric', 'rubric.json'], dir);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^scope\tfail\tfiles 1\/10/m);
    expect(r.stdout).toMatch(/^ {2}outside allowed_globs\tdocs\/guide\.md$/m);
    expect(r.stdout).toMatch(/^test_integrity\tpass$/m);
  });

  it.each([
    ['a missing rubric', (d: string, b: string) => ['--workspace', d, '--base', b, '--rubric', 'nope.json'], /--rubric .*nope\.json: no such file/],
    ['a rubric with a rooted glob', (d: string, b: string) => ['--workspace', d, '--base', b, '--rubric', 'bad.json'], /scope\.allowed_globs\.0: glob "\/src\/\*\*": must be relative/],
    ['a rubric that is not JSON', (d: string, b: string) => ['--workspace', d, '--base', b, '--rubric', 'broken.json'], /--rubric .*broken\.json: not valid JSON/],
    ['a base that is not a commit', (d: string) => ['--workspace', d, '--base', 'f'.repeat(40), '--rubric', 'ok.json'], /--base f{40}: not a commit/],
    ['a workspace that is not a work tree', (_d: string, b: string, t: string) => ['--workspace', t, '--base', b, '--rubric', 'ok.json'], /--workspace .*: not a git work tree/],
    ['a non-numeric --skipped', (d: string, b: string) => ['--workspace', d, '--base', b, '--rubric', 'ok.json', '--skipped', 'many'], /--skipped many: must be a whole number/],
    ['no --base', (d: string) => ['--workspace', d, '--rubric', 'ok.json'], /--base SHA is required/],
  ])('refuses %s with one line and exit 2', async (_name, args, message) => {
    const { repo, base } = await baseRepo();
    const dir = await tempDir();
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(rubric(base)));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(rubric(base, { scope: { allowed_globs: ['/src/**'] } })));
    writeFileSync(join(dir, 'broken.json'), '{"schema": ');
    const r = await cli(['grade-merge', ...args(repo.dir, base, dir)], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')[0]).toMatch(message);
  });
});
