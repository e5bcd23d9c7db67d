import { afterEach, describe, expect, it } from 'vitest';
import { BatchObjects } from '../../../src/git/batch.js';
import { forwardContext } from '../../../src/model/forward.js';
import { PairedStateSearch, parseTree } from '../../../src/forward/paired-states.js';
import { makeRepo } from '../../support/make-repo.js';

const wf = (paths: string[]): string =>
  `name: ci\non:\n  pull_request:\n    paths:\n${paths.map((p) => `      - '${p}'`).join('\n')}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n`;
const always = 'name: lint\non: pull_request\njobs:\n  l:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n';

const opened: BatchObjects[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});
const reader = (dir: string): BatchObjects => {
  const o = BatchObjects.open(`${dir}/.git`);
  opened.push(o);
  return o;
};

describe('paired-state search', () => {
  it('finds the state before the commit that changed a shared workflow\'s paths', async () => {
    const repo = await makeRepo();
    await repo.commit('start', { files: { 'src/a.c': '1', '.github/workflows/ci.yml': wf(['docs/**']), '.github/workflows/lint.yml': always } });
    const flip = await repo.commit('ci: also build on src changes', { files: { '.github/workflows/ci.yml': wf(['docs/**', 'src/**']) } });
    for (let i = 0; i < 5; i++) await repo.commit(`work ${i}`, { files: { 'src/a.c': String(i) } });
    const base = await repo.rev('HEAD');
    const before = await repo.rev(`${flip}^`);
    const search = new PairedStateSearch(reader(repo.dir), 50);
    const out = await search.search({
      caseId: 'o_r__1__00000000',
      repo: 'o/r',
      base,
      changedPaths: ['src/a.c'],
      context: forwardContext('main'),
      gold: ['.github/workflows/ci.yml', '.github/workflows/lint.yml'],
    });
    expect(out).toEqual({
      status: 'paired',
      pairedSha: before,
      distance: 6,
      pairedGold: ['.github/workflows/lint.yml'],
      flipped: ['.github/workflows/ci.yml'],
    });
    // Only the two distinct workflow states were routed.
    expect(search.statesRouted).toBe(2);
  });

  it('ignores a workflow that only exists in one state, and says no-pair within the bound', async () => {
    const repo = await makeRepo();
    await repo.commit('start', { files: { 'src/a.c': '1', '.github/workflows/lint.yml': always } });
    // Adding a workflow changes the gold but flips no workflow present in both states.
    await repo.commit('ci: add ci', { files: { '.github/workflows/ci.yml': wf(['src/**']) } });
    for (let i = 0; i < 4; i++) await repo.commit(`work ${i}`, { files: { 'src/a.c': String(i) } });
    const base = await repo.rev('HEAD');
    const q = {
      caseId: 'o_r__2__00000000',
      repo: 'o/r',
      base,
      changedPaths: ['src/a.c'],
      context: forwardContext('main'),
      gold: ['.github/workflows/ci.yml', '.github/workflows/lint.yml'],
    };
    expect(await new PairedStateSearch(reader(repo.dir), 50).search(q)).toEqual({ status: 'no-pair', searched: 5, why: 'reached the root of the history' });
    const bounded = await new PairedStateSearch(reader(repo.dir), 3).search(q);
    expect(bounded).toMatchObject({ status: 'no-pair', searched: 3 });
  });

  it('refuses a case whose recorded gold does not recompute at the base', async () => {
    const repo = await makeRepo();
    await repo.commit('start', { files: { 'src/a.c': '1', '.github/workflows/lint.yml': always } });
    const out = await new PairedStateSearch(reader(repo.dir), 10).search({
      caseId: 'x', repo: 'o/r', base: await repo.rev('HEAD'), changedPaths: ['src/a.c'], context: forwardContext('main'), gold: [],
    });
    expect(out.status).toBe('error');
  });

  it('parses tree objects and refuses a truncated one', () => {
    const id = Buffer.alloc(20, 0xab);
    const raw = Buffer.concat([Buffer.from('100644 a.txt\0'), id, Buffer.from('40000 dir\0'), id]);
    expect(parseTree(raw, 20)).toEqual([
      { mode: '100644', name: 'a.txt', oid: 'ab'.repeat(20) },
      { mode: '40000', name: 'dir', oid: 'ab'.repeat(20) },
    ]);
    expect(() => parseTree(raw.subarray(0, raw.length - 3), 20)).toThrow(/truncated/);
  });
});
