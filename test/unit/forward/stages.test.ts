import { describe, expect, it } from 'vitest';
import { Config } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { createStageContext } from '../../../src/run/context.js';
import { linkStage } from '../../../src/stages/link.js';
import { routeStage } from '../../../src/stages/route.js';
import type { StageContext } from '../../../src/stages/types.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { ForwardTables, type RecoveryRecord } from '../../../src/store/tables/forward.js';
import { Sources, type PullRow } from '../../../src/store/tables/sources.js';
import { digestOf } from '../../../src/util/canonical.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { BROKEN, WORKFLOWS, workflowFiles } from './workflows.js';

const R = 'acme/widgets';

function contextFor(store: Store, config: unknown = {}): StageContext {
  return createStageContext({ store, config: Config.parse(config), log: silentLogger, signal: new AbortController().signal, dataDir: '/nonexistent', env: {} });
}

function pullRow(number: number, over: Partial<PullRow> = {}): PullRow {
  return {
    repo: R, number, title: 'fix', body: '', author: 'dev', state: 'closed', draft: false, baseRef: 'main', baseSha: 'a'.repeat(40),
    headRef: 'x', headSha: 'b'.repeat(40), mergeCommitSha: null, createdAt: '2024-01-02T00:00:00Z', mergedAt: '2024-01-03T00:00:00Z',
    htmlUrl: `https://github.com/${R}/pull/${number}`, commitShas: [], commitMessages: [], source: 'test', ...over,
  };
}

function seed(store: Store, defaultBranch: string | null = 'main'): Sources {
  const s = store.sources;
  s.upsertRepo({ name: R, defaultBranch, isFork: false, parent: null, htmlUrl: null, source: 'test', updatedAt: '2024-01-01T00:00:00Z' });
  for (const n of [1, 2]) {
    s.upsertThread({
      repo: R, number: n, kind: 'issue', title: `t${n}`, body: 'b', author: 'u', state: 'closed', createdAt: '2024-01-01T00:00:00Z',
      updatedAt: null, closedAt: null, htmlUrl: `https://github.com/${R}/issues/${n}`, source: 'test',
    });
  }
  s.upsertPull(pullRow(10));
  s.upsertPull(pullRow(11, { baseRef: 'develop' }));
  s.upsertLink({ repo: R, issue: 1, pull: 10, how: 'closing-references', evidence: '' });
  s.upsertLink({ repo: R, issue: 2, pull: 11, how: 'keyword-title', evidence: 'fixes #2' });
  return s;
}

async function runStage(stage: typeof linkStage | typeof routeStage, ctx: StageContext): Promise<string[]> {
  const out: string[] = [];
  for (const item of await stage.plan(ctx, [R])) {
    const o = await stage.process(item as never, ctx);
    ctx.store.transaction(() => o.save(ctx.store));
    out.push(`${item.key}:${o.status}${o.status === 'rejected' ? `:${o.reason}` : ''}`);
  }
  return out;
}

describe('link stage', () => {
  it('stores one row per pair, replaced on re-runs, with reasons and link kinds', async () => {
    const store = openStore(':memory:');
    const s = seed(store);
    const ctx = contextFor(store);
    expect(await runStage(linkStage, ctx)).toEqual(['acme/widgets#1<-10:done', 'acme/widgets#2<-11:rejected:non-default-base']);
    const t = store.forward;
    expect(t.link(R, 2, 11)).toMatchObject({ status: 'rejected', linkKinds: ['keyword-title'], links: [{ how: 'keyword-title', evidence: 'fixes #2' }] });

    const before = (await linkStage.plan(ctx, [R])).map((i) => i.inputDigest);
    // What the link rules do not read (the title) leaves the item up to date.
    s.upsertPull(pullRow(10, { title: 'fix, retitled' }));
    expect((await linkStage.plan(ctx, [R])).map((i) => i.inputDigest)).toEqual(before);
    s.upsertPull(pullRow(10, { mergedAt: null, state: 'open' }));
    const after = (await linkStage.plan(ctx, [R])).map((i) => i.inputDigest);
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(await runStage(linkStage, ctx)).toEqual(['acme/widgets#1<-10:rejected:not-merged', 'acme/widgets#2<-11:rejected:non-default-base']);
    expect(t.links(R).map((l) => [l.pull, l.status])).toEqual([[10, 'rejected'], [11, 'rejected']]);
    store.close();
  });

  it('honours the config default branch and release patterns', async () => {
    const store = openStore(':memory:');
    seed(store);
    const ctx = contextFor(store, { repos: [{ name: R, default_branch: 'develop', release_branches: ['main'] }] });
    expect(await runStage(linkStage, ctx)).toEqual(['acme/widgets#1<-10:done', 'acme/widgets#2<-11:done']);
    expect(store.forward.links(R).map((l) => l.branchRule)).toEqual(['release', 'default']);
    store.close();
  });
});

describe('link stage without a recorded default branch (offline import)', () => {
  it("takes the mirror's HEAD branch as the default branch", async () => {
    const repo = await makeRepo();
    await repo.commit('root');
    await repo.checkout('develop', { create: true });
    const store = openStore(':memory:');
    seed(store, null);
    const dataDir = await tempDir();
    const ctx = createStageContext({
      store, config: Config.parse({ repos: [{ name: R, git_url: repo.dir }] }), log: silentLogger, signal: new AbortController().signal, dataDir, env: {},
    });
    try {
      expect(await runStage(linkStage, ctx)).toEqual(['acme/widgets#1<-10:rejected:non-default-base', 'acme/widgets#2<-11:done']);
      expect(store.forward.links(R).map((l) => l.branchRule)).toEqual([null, 'default']);
    } finally {
      await ctx.services.close();
      store.close();
    }
  });
});

describe('route stage', () => {
  const recovery = (over: Partial<RecoveryRecord> = {}): RecoveryRecord => {
    const workflows = workflowFiles({ ...WORKFLOWS, '.github/workflows/broken.yml': BROKEN });
    return {
      repo: R, issue: 1, pull: 10, status: 'done', base: 'c'.repeat(40), baseRule: 'pr-base-sha', head: 'd'.repeat(40), baseRef: 'main',
      changedPaths: ['docs/guide.md'], workflows, workflowsDigest: digestOf(workflows), reasons: [], ...over,
    };
  };

  it('stores gold, evaluator, explanation and input digests; a changed input re-plans and replaces the row', async () => {
    const store = openStore(':memory:');
    const t = store.forward;
    t.putRecovery(recovery());
    const ctx = contextFor(store);
    expect(await runStage(routeStage, ctx)).toEqual(['acme/widgets#1<-10:done']);
    const g = t.gold(R, 1, 10)!;
    expect(g).toMatchObject({
      status: 'done',
      gold: ['.github/workflows/docs.yml', '.github/workflows/lint.yml'],
      evaluator: 'routing/1',
      context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' },
      limitApplied: false,
      inputDigests: { workflows: digestOf(recovery().workflows), changed_paths: digestOf(['docs/guide.md']) },
    });
    expect(g.invalid).toEqual([{ path: '.github/workflows/broken.yml', reason: expect.stringMatching(/duplicate/i) }]);
    expect(Array.isArray(g.explain)).toBe(true);

    const [first] = await routeStage.plan(ctx, [R]);
    t.putRecovery(recovery({ changedPaths: [] }));
    const [second] = await routeStage.plan(ctx, [R]);
    expect(second!.inputDigest).not.toBe(first!.inputDigest);
    expect(await runStage(routeStage, ctx)).toEqual(['acme/widgets#1<-10:rejected:empty-change']);
    expect(t.golds(R)).toHaveLength(1);
    expect(t.gold(R, 1, 10)!.reasons).toEqual([{ code: 'empty-change', evidence: 'the pull request changes no path' }]);
    store.close();
  });

  it('skips pairs whose recovery was rejected', async () => {
    const store = openStore(':memory:');
    store.forward.putRecovery(recovery({ status: 'rejected', base: null, reasons: [{ code: 'base-missing', evidence: 'x' }] }));
    expect(await routeStage.plan(contextFor(store), [R])).toEqual([]);
    store.close();
  });
});

describe('ForwardTables.cases', () => {
  it('returns one record per linked pair in key order across pages, with the rejecting stage', () => {
    const store = openStore(':memory:');
    const t = store.forward;
    const src = store.sources;
    src.upsertLink({ repo: 'other/repo', issue: 1, pull: 2, how: 'timeline', evidence: '' });
    for (let i = 1; i <= 1202; i += 1) {
      if (i <= 1201) src.upsertLink({ repo: R, issue: i, pull: 5000 - i, how: 'timeline', evidence: '' });
      t.putLink({ repo: R, issue: i, pull: 5000 - i, status: i % 2 ? 'kept' : 'rejected', baseRef: 'main', branchRule: 'default', linkKinds: ['timeline'], links: [], flags: [], reasons: i % 2 ? [] : [{ code: 'not-merged', evidence: 'e' }] });
    }
    t.putLink({ repo: 'other/repo', issue: 1, pull: 2, status: 'kept', baseRef: 'main', branchRule: 'default', linkKinds: [], links: [], flags: [], reasons: [] });
    const all = t.cases([R]);
    expect(all).toHaveLength(1201);
    expect(all.map((c) => c.issue)).toEqual(Array.from({ length: 1201 }, (_, i) => i + 1));
    expect(all[0]).toMatchObject({ decision: 'pending', stage: 'link', gold: null, source: { issue_url: null, link_kinds: ['timeline'] } });
    expect(all[1]).toMatchObject({ decision: 'reject', reasons: [{ code: 'not-merged', evidence: 'e', stage: 'link' }] });
    expect(t.cases()).toHaveLength(1202); // the pair 1202 has no link row any more: left out
    expect(t.cases().some((c) => c.issue === 1202)).toBe(false);
    expect(new Set(all.map((c) => c.case_id)).size).toBe(1201);
    store.close();
  });
});
