import { execa } from 'execa';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultBranch, historyChanges, workflowsAtHead } from '../../../scripts/bench/route.js';
import { compileWorkflows, type RouteContext } from '../../../src/routing/index.js';
import { seededRandom } from '../../../src/util/random.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';

/**
 * Change sets read from a repository's history (as the route bench reads them with --git-dir),
 * routed against the repository's own workflows by a router that keeps per-path signals across
 * change sets: every answer equals the reference evaluation. The repository is built here.
 */
const JOB = 'jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n';
const WORKFLOWS: Record<string, string> = {
  '.github/workflows/docs.yml': `on:\n  pull_request:\n    branches: [main]\n    paths: ['docs/**', '**.md', '!CHANGELOG.md']\n${JOB}`,
  '.github/workflows/ci.yml': `on:\n  push:\n  pull_request:\n    paths-ignore: ['**.md', 'docs/**', '!docs/api/**']\n${JOB}`,
  '.github/workflows/cmake.yml': `on:\n  pull_request:\n    branches: [main]\n    paths: ['**/CMakeLists.txt', 'CMake/**', '*.ac']\n${JOB}`,
  '.github/workflows/release.yml': `on:\n  pull_request:\n    branches: [release]\n${JOB}`,
  '.github/workflows/label.yml': `on: [pull_request_target]\n${JOB}`,
  '.github/workflows/tests.yml': `on:\n  pull_request:\n    paths: ['tests/**', '!tests/data/**', 'lib/**']\n  pull_request_target:\n    types: [labeled]\n${JOB}`,
};
const POOL = [
  'lib/url.c', 'lib/http.c', 'lib/vtls/openssl.c', 'lib/CMakeLists.txt', 'CMakeLists.txt', 'CMake/find.cmake', 'configure.ac',
  'docs/a.md', 'docs/api/x.md', 'docs/Makefile', 'README.md', 'CHANGELOG.md', 'RELEASE-NOTES', 'tests/data/test1', 'tests/data/test2',
  'tests/unit/u1.c', 'src/tool.c', '.github/workflows/ci.yml',
];

async function historyRepo(): Promise<{ gitDir: string; commits: number }> {
  const repo = await makeRepo();
  await repo.commit('workflows', { files: WORKFLOWS });
  const rand = seededRandom(9);
  let commits = 1;
  for (let i = 0; i < 60; i++) {
    const files: Record<string, string> = {};
    const n = 1 + Math.floor(rand() * rand() * 6);
    for (let k = 0; k < n; k++) files[POOL[Math.floor(rand() * POOL.length)]!] = `v${i}.${k}\n`;
    await repo.commit(`change ${i}`, { files });
    commits++;
    if (i === 30) {
      // A merge: not a change set of its own.
      await repo.checkout('topic', { create: true });
      await repo.commit('topic', { files: { 'src/topic.c': 'x\n' } });
      commits++;
      await repo.checkout('main');
      await repo.merge('topic', { ff: 'never' });
    }
  }
  return { gitDir: resolve(repo.dir, '.git'), commits };
}

describe('routing a repository history against its own workflows', () => {
  it('reads the non-merge change sets, the workflows at HEAD and the default branch, and every answer agrees with route', async () => {
    const { gitDir, commits } = await historyRepo();
    const changes = await historyChanges(gitDir, 1000);
    expect(changes).toHaveLength(commits);
    expect(changes[0]!.length).toBeGreaterThan(0);
    const files = await workflowsAtHead(gitDir);
    expect(files.map((f) => f.path).sort()).toEqual(Object.keys(WORKFLOWS).sort());
    const branch = await defaultBranch(gitDir);
    expect(branch).toBe('main');

    const ctx: RouteContext = { event: 'pull_request', action: 'synchronize', base_branch: branch };
    const compiled = compileWorkflows(files);
    const reference = compileWorkflows(files);
    const router = compiled.routerFor(ctx);
    const seen = new Set<string>();
    // Twice: the second pass reads the signals kept from the first.
    for (let pass = 0; pass < 2; pass++) {
      for (const change of changes) {
        const expected = reference.route(change, ctx).activated;
        expect([...router.activated(change)], change.join(' ')).toEqual(expected);
        seen.add(expected.join(','));
      }
    }
    // The history exercises several different answers, not one.
    expect(seen.size).toBeGreaterThan(3);
    // Another context on the same history: the release branch filter passes, docs and cmake do not.
    const release: RouteContext = { ...ctx, base_branch: 'release' };
    const other = compiled.routerFor(release);
    for (const change of changes) expect([...other.activated(change)]).toEqual(reference.route(change, release).activated);
  });
});

describe('route bench inputs', () => {
  const bench = resolve(import.meta.dirname, '../../../scripts/bench/route.ts');
  const run = (args: string[]) => execa('node', ['--import', 'tsx', bench, ...args], { reject: false, cwd: resolve(import.meta.dirname, '../../..') });

  it('refuses a --git-dir that is not a repository, or has no workflows, with one line and exit 2', async () => {
    const empty = await tempDir();
    const r1 = await run(['--git-dir', empty]);
    expect(r1.exitCode).toBe(2);
    expect(r1.stderr.trim().split('\n')).toEqual([`route bench: --git-dir ${empty}: not a git repository with a commit at HEAD`]);
    expect(r1.stdout).toBe('');

    const repo = await makeRepo();
    await repo.commit('no workflows', { files: { 'a.c': 'x\n' } });
    const r2 = await run(['--git-dir', resolve(repo.dir, '.git')]);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr.trim()).toMatch(/^route bench: --git-dir .*: no workflow files in \.github\/workflows\/ at HEAD$/);
  });

  it('refuses a --prs that is not a positive whole number', async () => {
    const r = await run(['--prs', '0']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe('route bench: --prs 0: not a positive whole number');
  });
});
