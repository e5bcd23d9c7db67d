import { describe, expect, it } from 'vitest';
import { makeRepo, BASE_EPOCH } from '../../support/make-repo.js';
import { BranchHistory } from '../../../src/git/branch-history.js';
import { computeCutoff, historyWindow, isAncestor } from '../../../src/git/history.js';
import { runGit } from '../../../src/git/runner.js';
import { structuralChecks, structuralChecksWith } from '../../../src/backward/chain.js';
import { seededRandom } from '../../../src/util/random.js';
import { gd, openObjects } from './support.js';
import { foxtrotRepo } from './scenarios.js';

/**
 * A random history with every kind of merge computeCutoff distinguishes: foxtrot merges named by
 * their message ("Merge branch 'main' into topic", then main fast-forwarded), neutral foxtrot
 * merges that are pull-request heads, GitHub merge-button merges, "(#N)" merges of the named pull
 * request, plain merges, and commits whose clocks go backwards. Returns every commit made.
 */
async function randomHistory(seed: number) {
  const random = seededRandom(seed);
  const repo = await makeRepo();
  const commits: string[] = [];
  let clock = BASE_EPOCH;
  const tick = (): number => {
    clock += 3600;
    // Now and then a commit whose committer time is before its parent's (clock skew).
    return random() < 0.1 ? clock - 7200 * 3 : clock;
  };
  commits.push(await repo.commit('c0', { files: { 'a.txt': '0\n' }, time: tick() }));
  let pr = 1;
  for (let step = 0; step < 9; step++) {
    const kind = Math.floor(random() * 5);
    const topic = `topic${step}`;
    await repo.checkout(topic, { create: true });
    for (let i = 0; i < 1 + Math.floor(random() * 2); i++) commits.push(await repo.commit(`${topic} ${i}`, { files: { [`${topic}.txt`]: `${i}\n` }, time: tick() }));
    const topicHead = await repo.rev('HEAD');
    await repo.checkout('main');
    for (let i = 0; i < Math.floor(random() * 3); i++) commits.push(await repo.commit(`main ${step} ${i}`, { files: { [`m${step}.txt`]: `${i}\n` }, time: tick() }));
    if (kind === 0 || kind === 1) {
      // Foxtrot: main merged into the topic, then main fast-forwarded to that merge.
      await repo.checkout(topic);
      const neutral = kind === 1;
      const merge = await repo.merge('main', { message: neutral ? `sync ${step}` : "Merge branch 'main' into " + topic, time: tick() });
      if (neutral) await repo.updateRef(`refs/pull/${pr++}/head`, merge);
      commits.push(merge);
      await repo.checkout('main');
      await repo.merge(topic, { ff: 'only' });
    } else if (kind === 2) {
      await repo.updateRef(`refs/pull/${pr}/head`, topicHead);
      commits.push(await repo.merge(topic, { ff: 'never', message: `Merge pull request #${pr++} from dev/${topic}`, time: tick() }));
    } else if (kind === 3) {
      await repo.updateRef(`refs/pull/${pr}/head`, topicHead);
      const merge = await repo.merge(topic, { ff: 'never', message: `Add ${topic} (#${pr++})`, time: tick() });
      commits.push(merge);
      // A later pull request that proposed main itself: its head is that merge.
      if (random() < 0.5) await repo.updateRef(`refs/pull/${pr++}/head`, merge);
    } else {
      commits.push(await repo.merge(topic, { ff: 'never', message: `merge ${topic}`, time: tick() }));
    }
  }
  return { repo, gitDir: gd(repo), commits, end: clock };
}

describe('BranchHistory (batched cutoffs and ancestry) agrees with the per-case reference', () => {
  it.each([1, 2])('on a generated foxtrot history (seed %i): every report time and every ancestry pair', async (seed) => {
    const h = await randomHistory(seed);
    const history = await BranchHistory.load(h.gitDir, 'main');
    expect(history.size).toBe(new Set(h.commits).size);
    const times: Date[] = [];
    for (let t = BASE_EPOCH - 3600; t <= h.end + 3600; t += 7200) times.push(new Date(t * 1000));
    const reference = [];
    for (const t of times) reference.push(await computeCutoff(h.gitDir, 'main', t));
    const batched = times.map((t) => history.cutoff(t));
    expect(batched).toEqual(reference);
    // The generator does produce corrected cutoffs, or the agreement would say little.
    expect(reference.some((c) => c.rule === 'foxtrot-corrected')).toBe(true);

    const random = seededRandom(seed + 100);
    const pairs: { a: string; b: string }[] = [];
    const targets = [...new Set([...reference.map((c) => c.sha).filter((s): s is string => s !== null), ...h.commits])];
    for (let i = 0; i < 30; i++) pairs.push({ a: h.commits[Math.floor(random() * h.commits.length)]!, b: targets[Math.floor(random() * targets.length)]! });
    const expected = [];
    for (const p of pairs) expected.push(await isAncestor(h.gitDir, p.a, p.b));
    expect(pairs.map((p) => history.isAncestor(p.a, p.b))).toEqual(expected);
    const asked = [];
    for (const p of pairs) asked.push(await history.ancestor(p.a, p.b));
    expect(asked).toEqual(expected);
    // History windows (rev-list --count base..tip) for bases on the branch's first-parent line
    // and for bases off it (commits of merged side branches), against git.
    const mainLine = (await runGit(h.gitDir, ['rev-list', '--first-parent', 'main'])).stdout.split('\n').filter(Boolean);
    const offLine = h.commits.filter((c) => !mainLine.includes(c));
    expect(offLine.length).toBeGreaterThan(0);
    for (let i = 0; i < 24; i++) {
      const bases = i % 2 === 0 ? mainLine : offLine;
      const base = bases[Math.floor(random() * bases.length)]!;
      const tip = targets[Math.floor(random() * targets.length)]!;
      expect(history.countBetween(base, tip)).toBe(await historyWindow(h.gitDir, base, tip));
    }
    expect(history.countBetween('0'.repeat(40), mainLine[0]!)).toBeNull();
    // Bases the branch does not reach (a pull request's own commits): two commits written on top
    // of random history commits, outside every branch, read through the object reader.
    const objects = openObjects(h.gitDir);
    try {
      const parentsOf = async (sha: string) => (await objects.commit(sha))?.parents ?? null;
      for (let i = 0; i < 6; i++) {
        const from = h.commits[Math.floor(random() * h.commits.length)]!;
        const tree = (await runGit(h.gitDir, ['rev-parse', `${from}^{tree}`])).stdout.trim();
        const first = (await runGit(h.gitDir, ['commit-tree', tree, '-p', from, '-m', `outside ${i}`])).stdout.trim();
        const base = (await runGit(h.gitDir, ['commit-tree', tree, '-p', first, '-m', `outside ${i} again`])).stdout.trim();
        expect(history.countBetween(base, mainLine[0]!)).toBeNull();
        const tip = targets[Math.floor(random() * targets.length)]!;
        expect(await history.countBetweenOutside(base, tip, parentsOf)).toBe(await historyWindow(h.gitDir, base, tip));
        // Past the limit, or with a missing commit, it leaves the answer to git.
        expect(await history.countBetweenOutside(base, tip, parentsOf, 1)).toBeNull();
        expect(await history.countBetweenOutside(base, tip, async () => null)).toBeNull();
      }
    } finally {
      await objects.close();
    }
  }, 300_000);

  it('structural checks with a loaded history equal the per-case checks', async () => {
    const f = await foxtrotRepo();
    const objects = openObjects(f.gitDir);
    const history = await BranchHistory.load(f.gitDir, 'main');
    for (const gold of [f.c1, f.onFeature, f.onMain, f.merge, f.after, 'abc']) {
      for (const cutoff of [f.m2, f.after, null]) {
        const input = { gold, cutoff, defaultBranch: 'main', reportTime: f.report };
        expect(await structuralChecksWith(history, { gitDir: f.gitDir, objects }, input)).toEqual(await structuralChecks({ gitDir: f.gitDir, objects }, input));
      }
    }
  });

  it('answers off-branch pairs with null (the caller asks git) and names a missing branch', async () => {
    const f = await foxtrotRepo();
    await f.repo.checkout('side', { create: true });
    const side = await f.repo.commit('side only', { files: { 's.txt': 's\n' } });
    const history = await BranchHistory.load(f.gitDir, 'main');
    expect(history.isAncestor(f.c1, side)).toBeNull();
    expect(history.isAncestor(side, f.after)).toBe(false);
    expect(await history.ancestor(f.c1, side)).toBe(true);
    expect(await history.ancestor(side, f.c1)).toBe(false);
    await expect(BranchHistory.load(f.gitDir, 'trunk')).rejects.toThrow(/branch trunk not found/);
  });
});
