import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { ensureMirror, mirrorDir } from '../../../src/git/mirror.js';
import { openGitRepos } from '../../../src/git/repos.js';
import { blobsFetched, fetchObjects, isPartialRepo, missingObjectIn, missingObjects } from '../../../src/git/partial.js';
import { readWorkflowFiles } from '../../../src/git/workflows.js';
import { runGit } from '../../../src/git/runner.js';
import { writeTree } from '../../../src/export/package.js';

const WORKFLOW = 'on:\n  pull_request:\n    paths: [src/**]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n';

async function source() {
  const repo = await makeRepo({ branch: 'main' });
  await repo.git(['config', 'uploadpack.allowFilter', 'true']);
  const first = await repo.commit('first', { files: { '.github/workflows/ci.yml': WORKFLOW, 'src/a.txt': 'a\n'.repeat(500), 'data/big.bin': 'x'.repeat(200_000) } });
  const second = await repo.commit('second', { files: { 'src/a.txt': 'b\n'.repeat(500), '.github/workflows/lint.yml': WORKFLOW.replace('src/**', 'lib/**') } });
  return { repo, first, second };
}

describe('partial (blobless) mirrors', () => {
  it('clones commits and trees only; routing inputs fetch just the workflow blobs, in one batch', async () => {
    const { repo, first, second } = await source();
    const data = await tempDir();
    const dir = mirrorDir(data, 'acme/partial');
    await ensureMirror({ repo: 'acme/partial', url: pathToFileURL(repo.dir).href, dir });
    expect(await isPartialRepo(dir)).toBe(true);
    // Every blob of history is missing; commits and trees are there.
    const missingAtFirst = await missingObjects(dir, `${second}^{tree}`);
    expect(missingAtFirst.length).toBe(4);
    expect((await runGit(dir, ['rev-list', '--count', 'main'])).stdout.trim()).toBe('2');
    expect((await runGit(dir, ['diff', '--name-only', '--no-renames', first, second])).stdout.split('\n').filter(Boolean)).toEqual([
      '.github/workflows/lint.yml',
      'src/a.txt',
    ]);
    expect(blobsFetched(dir)).toBe(0);

    const files = await readWorkflowFiles(dir, second);
    expect(files.map((f) => f.path)).toEqual(['.github/workflows/ci.yml', '.github/workflows/lint.yml']);
    expect(files[0]!.text).toBe(WORKFLOW);
    expect(blobsFetched(dir)).toBe(2);
    // Only the two workflow blobs came; the large file and the sources are still absent.
    const after = await missingObjects(dir, `${second}^{tree}`);
    expect(after.length).toBe(2);
    await readWorkflowFiles(dir, second);
    expect(blobsFetched(dir)).toBe(2);

    // Writing a whole tree (a package) fetches the rest of its blobs in one batch.
    const out = await tempDir();
    const written = await writeTree(dir, second, out);
    expect(Object.keys(written).sort()).toEqual(['.github/workflows/ci.yml', '.github/workflows/lint.yml', 'data/big.bin', 'src/a.txt']);
    expect(blobsFetched(dir)).toBe(4);
    expect(await missingObjects(dir, `${second}^{tree}`)).toEqual([]);

    // An incremental update keeps the mirror partial.
    const third = await repo.commit('third', { files: { 'data/big.bin': 'y'.repeat(200_000) } });
    await ensureMirror({ repo: 'acme/partial', url: pathToFileURL(repo.dir).href, dir });
    expect((await runGit(dir, ['rev-parse', 'main'])).stdout.trim()).toBe(third);
    expect(await missingObjects(dir, `${third}^{tree}`)).toHaveLength(1); // only the new large blob
  });

  it('a full mirror when asked (partial: false); a remote that lacks an object fails with one line naming the repository and the object', async () => {
    const { repo, second } = await source();
    const data = await tempDir();
    const full = mirrorDir(data, 'acme/full');
    await ensureMirror({ repo: 'acme/full', url: pathToFileURL(repo.dir).href, dir: full, partial: false });
    expect(await isPartialRepo(full)).toBe(false);
    expect(await missingObjects(full, `${second}^{tree}`)).toEqual([]);

    const dir = mirrorDir(data, 'acme/partial');
    await ensureMirror({ repo: 'acme/partial', url: pathToFileURL(repo.dir).href, dir });
    const absent = '1'.repeat(40);
    await expect(fetchObjects(dir, 'acme/partial', [absent])).rejects.toThrow(
      `acme/partial: the remote lacks object ${absent} (the mirror is partial; fetch it from a complete remote, or set repos[].git_dir to a full copy)`,
    );
    expect(missingObjectIn(`fatal: remote error: upload-pack: not our ref ${absent}`)).toBe(absent);
    expect(missingObjectIn('fatal: something else')).toBeNull();
  });

  it('a remote that ignores the filter gives a complete mirror that is not a promisor clone (its readers never fetch)', async () => {
    const { repo, second } = await source();
    await repo.git(['config', 'uploadpack.allowFilter', 'false']);
    const data = await tempDir();
    const dir = mirrorDir(data, 'acme/nofilter');
    await ensureMirror({ repo: 'acme/nofilter', url: pathToFileURL(repo.dir).href, dir });
    expect(await isPartialRepo(dir)).toBe(false);
    expect(await missingObjects(dir, `${second}^{tree}`)).toEqual([]);
    expect((await runGit(dir, ['config', '--get', 'remote.origin.promisor'], { allowExit: [0, 1] })).exitCode).toBe(1);
  });

  it('repos[].git_dir is used in place and never fetched into', async () => {
    const { repo, second } = await source();
    const data = await tempDir();
    const before = (await runGit(`${repo.dir}/.git`, ['for-each-ref'])).stdout;
    const repos = openGitRepos({ dataDir: data, urlFor: () => 'file:///nonexistent', gitDirFor: () => `${repo.dir}/.git` });
    const handle = await repos.get('acme/inplace');
    expect(handle.gitDir).toBe(`${repo.dir}/.git`);
    expect((await readWorkflowFiles(handle.gitDir, second)).length).toBe(2);
    await repos.close();
    expect((await runGit(`${repo.dir}/.git`, ['for-each-ref'])).stdout).toBe(before);
    const missing = openGitRepos({ dataDir: data, urlFor: () => 'x', gitDirFor: () => `${data}/nope.git` });
    await expect(missing.get('acme/gone')).rejects.toThrow(`acme/gone: repos[].git_dir ${data}/nope.git does not exist`);
    await missing.close();
  });
});
