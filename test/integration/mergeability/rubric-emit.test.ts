import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { auditPackages } from '../../../src/export/audit.js';
import { packageForward } from '../../../src/export/package.js';
import { ForwardManifestRecord } from '../../../src/export/read-manifest.js';
import { emitRubric, prPatch, type OracleRow, type RubricTask } from '../../../src/mergeability/emit.js';
import { Rubric } from '../../../src/mergeability/rubric.js';
import { commentEvidence, forwardTask } from '../../../src/mergeability/tasks.js';
import { openStore } from '../../../src/store/db.js';
import { runCliCaptured as cli } from '../../support/cli.js';
import { makeRepo, tempDir, type TestRepo } from '../../support/make-repo.js';

const ID = 'acme_app__5__0000beef';

async function world() {
  const repo = await makeRepo();
  const base = await repo.commit('base', {
    files: {
      'src/core/a.py': 'def a():\n    return 1\n\n\n\n\n\ndef z():\n    return 26\n',
      'src/core/b.py': 'B = 2\n',
      'tests/test_a.py': 'def test_a():\n    pass\n',
      'docs/readme.md': '# app\n',
      'pytest.ini': '[pytest]\n',
      '.github/workflows/ci.yml': 'on: push\n',
      'packages/x/lib.js': 'x\n',
      'packages/y/lib.js': 'y\n',
    },
  });
  await repo.checkout('fix', { create: true });
  const head = await repo.commit('fix', {
    files: { 'src/core/a.py': 'def a():\n    return 2\n\n\n\n\n\ndef z():\n    return 26\n', 'tests/test_new.py': 'def test_new():\n    pass\n', 'packages/x/lib.js': 'x2\n' },
  });
  await repo.checkout('ci', { create: true, from: base });
  const ciHead = await repo.commit('ci too', { files: { 'src/core/b.py': 'B = 3\n', '.github/workflows/ci.yml': 'on: [push]\n' } });
  await repo.checkout('drop', { create: true, from: base });
  const dropHead = await repo.commit('drop test', { files: { 'src/core/b.py': 'B = 4\n', 'tests/test_a.py': null } });
  await repo.checkout('late', { create: true, from: base });
  const late = await repo.commit('late', { files: { 'src/core/a.py': 'def a():\n    return 1\n\n\n\n\n\ndef z():\n    return 27\n' } });
  await repo.checkout('main');
  const mirror = await repo.bareMirror();
  return { repo, base, head, ciHead, dropHead, late, mirror };
}

function record(base: string, head: string): ForwardManifestRecord {
  return ForwardManifestRecord.parse({
    task: 'forward', case_id: ID, repo: 'acme/app', issue: 5, pull: 9, issue_text: 'a() should return two.', base, head,
    context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' }, changed_paths: [], gold: [], evaluator: 'routing/1',
    source: { issue_url: null, pr_url: null }, digests: { base_tree: null, workflows: null, changed_paths: null, context: null },
  });
}

const noContext = { testGlobs: () => undefined, evidence: () => [] };
const readJson = (p: string): any => JSON.parse(readFileSync(p, 'utf8'));

async function checkoutAt(repo: TestRepo, rev: string): Promise<string> {
  const dir = await tempDir('r2v-ws-');
  await execa('git', ['clone', '-q', repo.dir, dir], { env: { LC_ALL: 'C' } });
  await execa('git', ['-C', dir, 'checkout', '-q', rev], { env: { LC_ALL: 'C' } });
  return dir;
}

describe('rubric scaffolds and their oracle row', () => {
  it('drafts scope from the gold change, passes the gold through grade-merge, and fails a change in an untouched component', async () => {
    const w = await world();
    const out = await tempDir('r2v-pkg-');
    const oracle = await emitRubric(await forwardTask(record(w.base, w.head), w.mirror, noContext), w.mirror, out);
    expect(oracle).toMatchObject({ task_id: ID, emitted: true, reason: null });
    const dir = join(out, 'grading', 'rubrics', ID);
    const rubric = Rubric.parse(readJson(join(dir, 'rubric.json')));
    expect(rubric).toMatchObject({ schema: 'repo_rubric.v1', status: 'draft', task: 'forward', base: w.base, intent: 'a() should return two.', blockers: [], non_blockers: [] });
    expect(rubric.scope.allowed_globs).toEqual(['packages/x/**', 'src/**', 'tests/**']);
    expect(rubric.scope.denied_globs).toContain('.github/**');
    expect(rubric.scope.headroom).toEqual({ files: { gold: 3, factor: 2, plus: 3 }, changed_lines: { gold: 6, factor: 3, plus: 50 } });
    expect(rubric.scope).toMatchObject({ max_files: 9, max_changed_lines: 68 });
    expect(rubric.tests).toEqual({ globs: ['tests/**'], config_globs: ['**/pytest.ini'], list: null, oracle_skipped: null });
    expect(readJson(join(dir, 'oracle.json')).report.changes.map((c: { path: string; status: string }) => `${c.status} ${c.path}`)).toEqual([
      'M packages/x/lib.js', 'M src/core/a.py', 'A tests/test_new.py',
    ]);

    // The same checks through the command, on an ordinary clone holding the gold commit.
    const gold = await checkoutAt(w.repo, w.head);
    const ok = await cli(['grade-merge', '--workspace', gold, '--base', w.base, '--rubric', join(dir, 'rubric.json'), '--json'], out);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).status).toBe('pass');
    writeFileSync(join(gold, 'packages/y/lib.js'), 'y2\n');
    const off = await cli(['grade-merge', '--workspace', gold, '--base', w.base, '--rubric', join(dir, 'rubric.json'), '--json'], out);
    expect(off.code).toBe(3);
    expect(JSON.parse(off.stdout).checks.scope.outside_allowed).toEqual(['packages/y/lib.js']);
  });

  it('does not write a scaffold the gold fails, and records why', async () => {
    const w = await world();
    const out = await tempDir('r2v-pkg-');
    const ci = await emitRubric(await forwardTask({ ...record(w.base, w.ciHead), case_id: 'acme_app__6__00000001' }, w.mirror, noContext), w.mirror, out);
    expect(ci.emitted).toBe(false);
    expect(ci.reason).toBe('gold touches denied paths: .github/workflows/ci.yml');
    const drop = await emitRubric(await forwardTask({ ...record(w.base, w.dropHead), case_id: 'acme_app__7__00000002' }, w.mirror, noContext), w.mirror, out);
    expect(drop.reason).toBe('gold deletes test files: tests/test_a.py');
    const none = await emitRubric(await forwardTask({ ...record(w.base, w.head), head: null, case_id: 'acme_app__8__00000003' }, w.mirror, noContext), w.mirror, out);
    expect(none.reason).toMatch(/not recorded/);
    for (const id of ['acme_app__6__00000001', 'acme_app__7__00000002', 'acme_app__8__00000003']) {
      expect(existsSync(join(out, 'grading', 'rubrics', id, 'rubric.json'))).toBe(false);
      expect((readJson(join(out, 'grading', 'rubrics', id, 'oracle.json')) as OracleRow).emitted).toBe(false);
    }
  });

  it('composes both patches of a pair that edit one file in different places', async () => {
    const w = await world();
    const out = await tempDir('r2v-pkg-');
    const task: RubricTask = {
      taskId: 'acme__app__10_11', task: 'pair', repo: 'acme/app', base: w.base, intent: '#10: a\n#11: z',
      patches: [await prPatch(w.mirror, w.base, w.head), await prPatch(w.mirror, w.base, w.late)],
      testIds: ['tests/test_new.py::test_new', 'tests/test_new.py::test_absent', 'tests/test_gone.py'],
    };
    // A mirror named by a relative path works too (the scratch work tree borrows its objects by absolute path).
    const oracle = await emitRubric(task, relative(process.cwd(), w.mirror), out);
    expect(oracle.emitted).toBe(true);
    // Only the ids the gold's files show become tests.list, so the oracle keeps them all.
    expect(Rubric.parse(readJson(join(out, 'grading', 'rubrics', 'acme__app__10_11', 'rubric.json'))).tests.list).toEqual(['tests/test_new.py::test_new']);
    expect(oracle.report!.checks.test_integrity.removed_test_ids).toEqual([]);
    expect(oracle.report!.changes.find((c) => c.path === 'src/core/a.py')).toEqual({ path: 'src/core/a.py', status: 'M', added: 2, deleted: 2 });
  });

  it('lists imported pull-request comments as evidence candidates and uses the configured test globs', async () => {
    const w = await world();
    const store = openStore(':memory:');
    try {
      store.sources.replaceComments('acme/app', 9, [
        { repo: 'acme/app', number: 9, commentId: 1, author: 'maintainer', createdAt: '2024-02-01T00:00:00Z', updatedAt: null, body: 'Please keep the old name as an alias.', htmlUrl: null },
      ]);
      const out = await tempDir('r2v-pkg-');
      const task = await forwardTask(record(w.base, w.head), w.mirror, { testGlobs: () => ['test_*.py', 'tests/**'], evidence: commentEvidence(store) });
      await emitRubric(task, w.mirror, out);
      const rubric = Rubric.parse(readJson(join(out, 'grading', 'rubrics', ID, 'rubric.json')));
      expect(rubric.evidence_candidates).toEqual([
        { kind: 'pull-comment', pull: 9, author: 'maintainer', created_at: '2024-02-01T00:00:00Z', url: null, body: 'Please keep the old name as an alias.' },
      ]);
      expect(rubric.tests.globs).toEqual(['**/test_*.py', 'tests/**']);
    } finally {
      store.close();
    }
  });

  it('package audit passes scaffolds on the grading side and flags any copy on the agent side', async () => {
    const w = await world();
    const out = await tempDir('r2v-pkg-');
    const r = record(w.base, w.head);
    await packageForward(r, w.mirror, out);
    await emitRubric(await forwardTask(r, w.mirror, noContext), w.mirror, out);
    expect(await auditPackages(out)).toEqual({ packages: 1, findings: [] });

    const rubricPath = join(out, 'grading', 'rubrics', ID, 'rubric.json');
    mkdirSync(join(out, ID, 'tree', 'docs'), { recursive: true });
    copyFileSync(rubricPath, join(out, ID, 'tree', 'docs', 'rubric.json'));
    const copied = await auditPackages(out);
    expect(copied.findings).toContain(`${ID}: rubric data on the agent side at tree/docs/rubric.json`);
    rmSync(join(out, ID, 'tree', 'docs', 'rubric.json'));

    writeFileSync(join(out, ID, 'tree', 'oracle.json'), JSON.stringify({ ...readJson(join(out, 'grading', 'rubrics', ID, 'oracle.json')), note: 'edited' }));
    expect((await auditPackages(out)).findings).toContain(`${ID}: rubric data on the agent side at tree/oracle.json`);
    rmSync(join(out, ID, 'tree', 'oracle.json'));

    rmSync(rubricPath);
    expect((await auditPackages(out)).findings).toEqual([`grading/rubrics/${ID}: oracle.json says emitted=true but rubric.json is absent`]);
  });
});
