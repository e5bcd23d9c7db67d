import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitIdOf } from '../../../src/git/revision.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';

describe('commitIdOf', () => {
  it('reads a branch, a relative revision, a tag, a short id and a tree-ish as commit ids, else null', async () => {
    const repo = await makeRepo();
    const c1 = await repo.commit('one');
    const c2 = await repo.commit('two');
    await repo.tag('v1', c1);
    const gitDir = join(repo.dir, '.git');
    expect(await commitIdOf(gitDir, 'HEAD')).toBe(c2);
    expect(await commitIdOf(gitDir, 'HEAD~1')).toBe(c1);
    expect(await commitIdOf(gitDir, 'v1')).toBe(c1);
    expect(await commitIdOf(gitDir, c2.slice(0, 10))).toBe(c2);
    expect(await commitIdOf(gitDir, 'f'.repeat(40))).toBeNull();
    expect(await commitIdOf(gitDir, 'HEAD^{tree}')).toBeNull();
    expect(await commitIdOf(gitDir, 'no-such-branch')).toBeNull();
  });

  it('never takes the revision as an option, and answers null where there is no repository', async () => {
    const repo = await makeRepo();
    await repo.commit('one');
    expect(await commitIdOf(join(repo.dir, '.git'), '--all')).toBeNull();
    expect(await commitIdOf(join(await tempDir(), 'missing.git'), 'HEAD')).toBeNull();
  });
});
