import { chmod, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PairGit } from '../../../src/pairs/git.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';

describe('PairGit on a bare mirror', () => {
  it('lists, diffs, applies, merges and checks out trees', async () => {
    const repo = await makeRepo();
    const base = await repo.commit('base', { files: { 'a.txt': 'one\ntwo\nthree\n', 'run.sh': '#!/bin/sh\necho hi\n' } });
    await chmod(join(repo.dir, 'run.sh'), 0o755);
    const exec = await repo.commit('exec bit');
    await repo.checkout('x', { create: true });
    const x = await repo.commit('x', { files: { 'a.txt': 'ONE\ntwo\nthree\n', 'b.bin': '\u0000\u0001binary' } });
    await repo.checkout('y', { create: true, from: exec });
    const y = await repo.commit('y', { files: { 'a.txt': 'one\ntwo\nTHREE\n' } });
    const mirror = await repo.bareMirror();
    const git = await PairGit.open(mirror);
    try {
      expect(await git.missingCommits([x, 'f'.repeat(40), 'bad name'])).toEqual(['bad name', 'f'.repeat(40)]);
      expect((await git.changedFiles(exec, x)).map((f) => `${f.status} ${f.path}`)).toEqual(['M a.txt', 'A b.bin']);
      const patchX = await git.diff(exec, x, ['a.txt', 'b.bin']);
      const patchY = await git.diff(exec, y, ['a.txt']);
      expect(patchX.toString('latin1')).toContain('GIT binary patch');

      const ax = await git.applyToTree(exec, [patchX, Buffer.alloc(0)]);
      const ay = await git.applyToTree(exec, [patchY]);
      if (!ax.ok || !ay.ok) throw new Error('expected both patches to apply');
      expect(ax.trees[0]).toBe(ax.trees[1]); // an empty patch leaves the tree as it was
      const merged = await git.mergeCommits(await git.commitTree(ax.trees[0]!, exec, 'x'), await git.commitTree(ay.trees[0]!, exec, 'y'));
      if (!merged.clean) throw new Error('expected a clean merge');
      const dir = await tempDir();
      await git.checkout(merged.tree, dir);
      expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('ONE\ntwo\nTHREE\n');
      expect(await readFile(join(dir, 'b.bin'), 'utf8')).toBe('\u0000\u0001binary');
      expect((await stat(join(dir, 'run.sh'))).mode & 0o111).not.toBe(0);

      // The first patch applied, the second does not apply on top of itself.
      const twice = await git.applyToTree(exec, [patchY, patchY]);
      expect(twice).toMatchObject({ ok: false, patch: 1 });
      // Conflicting edits of one line.
      await repo.checkout('z', { create: true, from: exec });
      const z = await repo.commit('z', { files: { 'a.txt': 'uno\ntwo\nthree\n' } });
      const mirror2 = await repo.bareMirror();
      const git2 = await PairGit.open(mirror2);
      try {
        const az = await git2.applyToTree(exec, [await git2.diff(exec, z, ['a.txt'])]);
        const ax2 = await git2.applyToTree(exec, [await git2.diff(exec, x, ['a.txt'])]);
        if (!az.ok || !ax2.ok) throw new Error('expected both patches to apply');
        const conflict = await git2.mergeCommits(await git2.commitTree(az.trees[0]!, exec, 'z'), await git2.commitTree(ax2.trees[0]!, exec, 'x'));
        expect(conflict).toEqual({ clean: false, conflicts: ['a.txt'] });
        await expect(git2.mergeCommits(exec, 'no-such-ref')).rejects.toThrow(/merge-tree/);
      } finally {
        await git2.close();
      }
    } finally {
      await git.close();
    }
    expect(base).toMatch(/^[0-9a-f]{40}$/);
  });
});
