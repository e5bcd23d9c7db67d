import { describe, expect, it } from 'vitest';
import { makeRepo, BASE_EPOCH } from '../../support/make-repo.js';
import { blobSharingPrefix, commitsSharingPrefix, openObjects } from './support.js';
import { BatchObjects } from '../../../src/git/batch.js';
import { gd } from './support.js';
import { openCatFileCount } from '../../../src/git/cat-file.js';

describe.each(['command', 'classic'] as const)('BatchObjects (%s protocol)', (protocol) => {
  it('resolves full and abbreviated hex, reports missing and not-commit', async () => {
    const repo = await makeRepo();
    const c1 = await repo.commit('first', { files: { 'a.txt': 'alpha\n' } });
    const c2 = await repo.commit('second\n\nbody line', { files: { 'b.txt': 'beta\n' } });
    const blob = await repo.git(['rev-parse', `${c2}:a.txt`]);
    const tree = await repo.git(['rev-parse', `${c2}^{tree}`]);
    const objects = openObjects(gd(repo), protocol);
    const res = await objects.resolve([c1, c2.slice(0, 10).toUpperCase(), blob, tree.slice(0, 12), '0'.repeat(40), 'has space', '']);
    expect(res.map((r) => [r.status, r.sha])).toEqual([
      ['ok', c1],
      ['ok', c2],
      ['not-commit', blob],
      ['not-commit', tree],
      ['missing', null],
      ['missing', null],
      ['missing', null],
    ]);
    expect(res[2]!.type).toBe('blob');
    expect(res[3]!.type).toBe('tree');
  });

  it('reports a 4-hex abbreviation shared by two commits as ambiguous, listing both', async () => {
    const repo = await makeRepo();
    await repo.commit('root', { files: { 'a.txt': 'a\n' } });
    const [a, b] = await commitsSharingPrefix(repo, 4);
    expect(a.slice(0, 4)).toBe(b.slice(0, 4));
    const objects = openObjects(gd(repo), protocol);
    const [amb, fullA, longer] = await objects.resolve([a.slice(0, 4), a, a.slice(0, 12)]);
    expect(amb).toEqual({ input: a.slice(0, 4), status: 'ambiguous', sha: null, type: null, candidates: [a, b].sort() });
    expect(fullA!.status).toBe('ok');
    // A longer prefix of one of them is unique unless the pair shares 12 digits, which it does not.
    expect(a.slice(0, 12) === b.slice(0, 12)).toBe(false);
    expect(longer).toMatchObject({ status: 'ok', sha: a });
  });

  it('resolves an abbreviation shared by one commit and a blob to the commit', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('only commit', { files: { 'a.txt': 'a\n' } });
    const blob = await blobSharingPrefix(repo, c, 4);
    expect(blob.slice(0, 4)).toBe(c.slice(0, 4));
    const objects = openObjects(gd(repo), protocol);
    const [r] = await objects.resolve([c.slice(0, 4)]);
    expect(r).toMatchObject({ status: 'ok', sha: c, candidates: [] });
  });

  it('reads commit headers and blobs, and answers concurrent callers in order', async () => {
    const repo = await makeRepo();
    const c1 = await repo.commit('first', { files: { 'dir/a.txt': 'alpha ü\n' } });
    const c2 = await repo.commit('subject line\n\nthe body', { files: { 'b.txt': 'beta\n' }, author: { name: 'Ann Other', email: 'ann@example.com' } });
    const objects = openObjects(gd(repo), protocol);
    const info = await objects.commit(c2.slice(0, 8));
    expect(info).toMatchObject({
      sha: c2,
      parents: [c1],
      authorName: 'Ann Other',
      authorEmail: 'ann@example.com',
      authorTime: BASE_EPOCH + 2 * 3600,
      committerTime: BASE_EPOCH + 2 * 3600,
      subject: 'subject line',
      message: 'subject line\n\nthe body\n',
    });
    expect((await objects.commit(c1))!.parents).toEqual([]);
    const [x, y, z, w] = await Promise.all([
      objects.blob(c2, 'dir/a.txt'),
      objects.blob(c1, 'b.txt'),
      objects.commit(`${c2}:b.txt`),
      objects.blob(c2, 'dir'),
    ]);
    expect([x, y, z, w]).toEqual(['alpha ü\n', null, null, null]);
  });

  it('reads objects larger than one pipe chunk between small ones', async () => {
    const repo = await makeRepo();
    const big = 'x'.repeat(999).concat('\n').repeat(3000); // 3 MB
    const c = await repo.commit('big', { files: { 'big.txt': big, 'small.txt': 's\n' } });
    const objects = openObjects(gd(repo), protocol);
    const [a, b, d, e] = await Promise.all([objects.blob(c, 'small.txt'), objects.blob(c, 'big.txt'), objects.blob(c, 'small.txt'), objects.commit(c)]);
    expect(a).toBe('s\n');
    expect(b!.length).toBe(3_000_000);
    expect(b).toBe(big);
    expect(d).toBe('s\n');
    expect(e!.sha).toBe(c);
  });

  it('close is idempotent, stops the children and rejects later use', async () => {
    const repo = await makeRepo();
    const c = await repo.commit('one');
    const before = openCatFileCount();
    const objects = BatchObjects.open(gd(repo), { protocol });
    objects.warm();
    expect(openCatFileCount()).toBe(before + 2);
    expect(process.listeners('exit').some((l) => l.name === 'killAllOnExit')).toBe(true);
    expect((await objects.resolve([c]))[0]!.status).toBe('ok');
    await objects.close();
    await objects.close();
    expect(openCatFileCount()).toBe(before);
    if (before === 0) expect(process.listeners('exit').some((l) => l.name === 'killAllOnExit')).toBe(false);
    await expect(objects.resolve([c])).rejects.toThrow(/closed/);
  });

  it('fails requests with a git error when the repository does not exist', async () => {
    const objects = BatchObjects.open('/nonexistent/r2v-no-repo.git', { protocol });
    await expect(objects.resolve(['HEAD'])).rejects.toThrow(/cat-file.*exited unexpectedly/);
    await objects.close();
  });
});
