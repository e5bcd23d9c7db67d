/**
 * Trees from untrusted remotes: entries named `..`, names with a slash, and a path that is a
 * symlink and a directory at once must never make packaging write outside --out, and a mirror
 * fetch refuses such objects at the door.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMirror } from '../../../src/git/mirror.js';
import { packageBackward, packageForward, writeTree } from '../../../src/export/package.js';
import { BackwardManifestRecord, ForwardManifestRecord } from '../../../src/export/read-manifest.js';
import { findNamed } from '../../../src/export/tree.js';
import { cleanupTempDirs, makeRepo, tempDir, type TestRepo } from '../../support/make-repo.js';

afterAll(async () => {
  await cleanupTempDirs();
});

type Entry = readonly [mode: string, name: string, oid: string];

/** A tree object written as given (no sorting, no checks), as a hostile remote could serve it. */
async function rawTree(repo: TestRepo, entries: readonly Entry[]): Promise<string> {
  const body = Buffer.concat(entries.map(([mode, name, oid]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`, 'utf8'), Buffer.from(oid, 'hex')])));
  const r = await execa('git', ['-C', repo.dir, 'hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], { input: body });
  return r.stdout.trim();
}

async function blob(repo: TestRepo, text: string): Promise<string> {
  return (await execa('git', ['-C', repo.dir, 'hash-object', '-w', '--stdin'], { input: text })).stdout.trim();
}

async function commitOf(repo: TestRepo, tree: string, parent: string, branch: string): Promise<string> {
  const env = { GIT_AUTHOR_DATE: '1704067200 +0000', GIT_COMMITTER_DATE: '1704067200 +0000' };
  const sha = await repo.git(['commit-tree', tree, '-p', parent, '-m', `hostile ${branch}`], env);
  await repo.updateRef(`refs/heads/${branch}`, sha);
  return sha;
}

interface Hostile {
  repo: TestRepo;
  base: string;
  outside: string;
  commits: Record<'dotdot' | 'collision' | 'slash' | 'dot', string>;
}

async function hostileRepo(): Promise<Hostile> {
  const repo = await makeRepo();
  const base = await repo.commit('Initial import', { files: { 'README.md': '# w\n' } });
  const outside = await tempDir('r2v-outside-');
  const readme = await blob(repo, '# w\n');
  const pwned = await blob(repo, 'written outside\n');
  const leaf = await rawTree(repo, [['100644', 'pwned', pwned]]);
  // ../../../../pwned: four steps up from <out>/.<case>.partial/tree leaves <out>.
  let up = leaf;
  for (let i = 0; i < 4; i += 1) up = await rawTree(repo, [['40000', '..', up]]);
  const dotdot = await rawTree(repo, [['100644', 'README.md', readme], ['40000', '..', (await rawTree(repo, [['40000', '..', (await rawTree(repo, [['40000', '..', (await rawTree(repo, [['40000', '..', leaf]]))]]))]]))]]);
  // x is a symlink to a directory outside, and x/ is a directory holding pwned.
  const link = await blob(repo, outside);
  const collision = await rawTree(repo, [['100644', 'README.md', readme], ['120000', 'x', link], ['40000', 'x', leaf]]);
  const slash = await rawTree(repo, [['100644', 'README.md', readme], ['100644', '../../../../pwned', pwned]]);
  const dot = await rawTree(repo, [['100644', 'README.md', readme], ['40000', '.', leaf]]);
  return {
    repo,
    base,
    outside,
    commits: {
      dotdot: await commitOf(repo, dotdot, base, 'dotdot'),
      collision: await commitOf(repo, collision, base, 'collision'),
      slash: await commitOf(repo, slash, base, 'slash'),
      dot: await commitOf(repo, dot, base, 'dot'),
    },
  };
}

/** Every `pwned` file under `root` that is not inside `out`. */
function escaped(root: string, out: string): string[] {
  return findNamed(root, 'pwned').filter((p) => !join(root, p).startsWith(`${out}/`));
}

const forwardRecord = (caseId: string, base: string) =>
  ForwardManifestRecord.parse({
    task: 'forward', case_id: caseId, repo: 'acme/widget', issue: 2, pull: 7, issue_text: 'Terse README.', base, head: null,
    context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' }, changed_paths: ['README.md'], gold: [], evaluator: 'routing/1',
    source: { issue_url: 'https://github.com/acme/widget/issues/2', pr_url: null },
    digests: { base_tree: null, workflows: null, changed_paths: null, context: null },
  });

const backwardRecord = (caseId: string, gold: string, cutoff: string) =>
  BackwardManifestRecord.parse({
    task: 'backward', case_id: caseId, repo: 'acme/widget', number: 1, report: 'crash\n', report_time: '2024-01-02T00:00:00Z',
    default_branch: 'main', cutoff, gold, parent: gold, history_window: 1, checks: {}, digests: { cutoff_tree: null },
  });

describe('untrusted trees', () => {
  let h: Hostile;
  let mirror: string;

  beforeAll(async () => {
    h = await hostileRepo();
    mirror = await h.repo.bareMirror();
  });

  it('the hostile repository holds a tree whose paths climb out', async () => {
    expect((await h.repo.git(['ls-tree', '-r', '--name-only', h.commits.dotdot])).split('\n')).toContain('../../../../pwned');
  });

  it.each([
    ['dotdot', /tree entry "\.\." is a path step; refusing to write it/],
    ['collision', /tree entry "x" occurs twice/],
    ['slash', /has an unusable path step|has a name containing \//],
    ['dot', /tree entry "\." is a path step/],
  ] as const)('writeTree refuses the %s tree and writes nothing outside its directory', async (which, why) => {
    const base = await tempDir('r2v-pkgroot-');
    const dir = join(base, 'a', 'b', 'c', 'tree');
    mkdirSync(dir, { recursive: true });
    await expect(writeTree(mirror, h.commits[which], dir)).rejects.toThrow(why);
    expect(escaped(base, dir)).toEqual([]);
    expect(readdirSync(h.outside)).toEqual([]);
  });

  it.each(['dotdot', 'collision', 'slash', 'dot'] as const)('package refuses a Forward case on the %s tree: nothing outside --out, no partial package', async (which) => {
    const base = await tempDir('r2v-pkgroot-');
    const out = join(base, 'deep', 'out');
    await expect(packageForward(forwardRecord('acme_widget__2__0000000b', h.commits[which]), mirror, out)).rejects.toThrow(/refusing to write it/);
    expect(escaped(base, out)).toEqual([]);
    expect(readdirSync(h.outside)).toEqual([]);
    expect(readdirSync(out).filter((e) => e !== 'grading')).toEqual([]);
  });

  it.each(['dotdot', 'collision'] as const)('package refuses a Backward case whose cutoff tree is %s', async (which) => {
    const base = await tempDir('r2v-pkgroot-');
    const out = join(base, 'deep', 'out');
    await expect(packageBackward(backwardRecord('acme_widget__1__0000000a', h.base, h.commits[which]), mirror, out)).rejects.toThrow(/refusing to write it/);
    expect(escaped(base, out)).toEqual([]);
    expect(readdirSync(h.outside)).toEqual([]);
    expect(existsSync(join(out, 'acme_widget__1__0000000a'))).toBe(false);
  });

  it('a mirror fetch refuses the hostile objects (fsck) and leaves no mirror behind', async () => {
    const data = await tempDir();
    const dir = join(data, 'mirrors', 'acme__widget.git');
    await expect(ensureMirror({ repo: 'acme/widget', url: pathToFileURL(h.repo.dir).href, dir, retry: { retries: 0, minTimeoutMs: 1 } })).rejects.toThrow(/fsck error/);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${dir}.partial`)).toBe(false);
  });

  it('an existing mirror gets the fsck settings on its next update and refuses new hostile objects', async () => {
    const clean = await makeRepo();
    await clean.commit('Initial import', { files: { 'README.md': '# w\n' } });
    const data = await tempDir();
    const dir = join(data, 'mirrors', 'acme__clean.git');
    await ensureMirror({ repo: 'acme/clean', url: pathToFileURL(clean.dir).href, dir, retry: { retries: 0, minTimeoutMs: 1 } });
    await execa('git', ['-C', dir, 'config', '--unset-all', 'fetch.fsckObjects']);
    const pwned = await blob(clean, 'x\n');
    const t = await rawTree(clean, [['40000', '..', await rawTree(clean, [['100644', 'pwned', pwned]])]]);
    await commitOf(clean, t, await clean.rev('HEAD'), 'evil');
    await expect(ensureMirror({ repo: 'acme/clean', url: pathToFileURL(clean.dir).href, dir, retry: { retries: 0, minTimeoutMs: 1 } })).rejects.toThrow(/hasDotdot/);
    expect((await execa('git', ['-C', dir, 'for-each-ref', '--format=%(refname)'])).stdout).not.toContain('refs/heads/evil');
  });
});
