import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/db.js';
import { runStages } from '../../../src/run/runner.js';
import { createStageContext } from '../../../src/run/context.js';
import { Config } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { MinerError, ConfigError } from '../../../src/errors.js';
import { squaresStage } from '../../support/test-stages.js';

function ctxFor(store: Store, signal = new AbortController().signal) {
  return createStageContext({ store, config: Config.parse({}), log: silentLogger, signal, dataDir: '/nonexistent', env: {} });
}

function rows(store: Store): { key: string; n: number; square: number }[] {
  return store.db.prepare('SELECT key, n, square FROM test_squares ORDER BY key').all() as { key: string; n: number; square: number }[];
}

describe('stage runner', () => {
  it('processes every item once and records done and rejected in the ledger', async () => {
    const store = openStore(':memory:');
    const seen: number[] = [];
    const summary = await runStages(ctxFor(store), { stages: [squaresStage({ count: 25, onProcess: (n) => seen.push(n) })], repos: ['a/b'] });
    expect(summary.stages[0]).toMatchObject({ done: 23, rejected: 2, failed: 0, upToDate: 0 });
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(rows(store)).toHaveLength(25);
    expect(store.workItems.get('squares', 'a/b#10')).toMatchObject({ status: 'rejected', reason: 'multiple-of-ten', attempts: 1 });
  });

  it('a second run finds nothing pending', async () => {
    const store = openStore(':memory:');
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 5 })], repos: ['a/b'] });
    let calls = 0;
    const summary = await runStages(ctxFor(store), { stages: [squaresStage({ count: 5, onProcess: () => (calls += 1) })], repos: ['a/b'] });
    expect(calls).toBe(0);
    expect(summary.stages[0]).toMatchObject({ processed: 0, upToDate: 5 });
  });

  it('a stage version bump makes its items pending again, and only those of that stage', async () => {
    const store = openStore(':memory:');
    const other = { ...squaresStage({ count: 3 }), name: 'other' };
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 4 }), other], repos: ['a/b'] });
    let bumped = 0;
    let untouched = 0;
    const summary = await runStages(ctxFor(store), {
      stages: [squaresStage({ count: 4, version: 2, onProcess: () => (bumped += 1) }), { ...squaresStage({ count: 3, onProcess: () => (untouched += 1) }), name: 'other' }],
      repos: ['a/b'],
    });
    expect(bumped).toBe(4);
    expect(untouched).toBe(0);
    expect(summary.stages.map((s) => s.processed)).toEqual([4, 0]);
    expect(store.workItems.get('squares', 'a/b#1')?.stageVersion).toBe(2);
  });

  it('a changed input digest makes the item stale', async () => {
    const store = openStore(':memory:');
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 3 })], repos: ['a/b'] });
    let calls = 0;
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 3, salt: 'upstream changed', onProcess: () => (calls += 1) })], repos: ['a/b'] });
    expect(calls).toBe(3);
    expect(rows(store)).toHaveLength(3);
  });

  it('a failing item is recorded with its kind and the other items are processed', async () => {
    const store = openStore(':memory:');
    const stage = squaresStage({ count: 6, failOn: { numbers: [3], error: () => new MinerError('not-found', 'commit abc not found') } });
    const summary = await runStages(ctxFor(store), { stages: [stage], repos: ['a/b'] });
    expect(summary.failed).toBe(1);
    expect(rows(store).map((r) => r.n).sort()).toEqual([1, 2, 4, 5, 6]);
    const failed = store.workItems.get('squares', 'a/b#3');
    expect(failed).toMatchObject({ status: 'failed', errorKind: 'not-found', errorMessage: 'commit abc not found', attempts: 1 });
    // Failed items are pending: the next run retries only them.
    const seen: number[] = [];
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 6, onProcess: (n) => seen.push(n) })], repos: ['a/b'] });
    expect(seen).toEqual([3]);
    expect(store.workItems.get('squares', 'a/b#3')).toMatchObject({ status: 'done', attempts: 2, errorKind: null });
  });

  it('an unclassified error fails the item as internal and the run goes on', async () => {
    const store = openStore(':memory:');
    const stage = squaresStage({ count: 3, failOn: { numbers: [1], error: () => new TypeError('boom') } });
    const summary = await runStages(ctxFor(store), { stages: [stage], repos: ['a/b'] });
    expect(summary.stages[0]).toMatchObject({ done: 2, failed: 1 });
    expect(store.workItems.get('squares', 'a/b#1')?.errorKind).toBe('internal');
  });

  it('a fatal error stops the run', async () => {
    const store = openStore(':memory:');
    const stage = squaresStage({ count: 50, failOn: { numbers: [2], error: () => new ConfigError('bad token env') } });
    await expect(runStages(ctxFor(store), { stages: [stage], repos: ['a/b'] })).rejects.toThrow('bad token env');
    expect(rows(store).length).toBeLessThan(50);
  });

  it('--force recomputes every item', async () => {
    const store = openStore(':memory:');
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 4 })], repos: ['a/b'] });
    let calls = 0;
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 4, onProcess: () => (calls += 1) })], repos: ['a/b'], force: true });
    expect(calls).toBe(4);
    expect(rows(store)).toHaveLength(4);
    expect(store.workItems.get('squares', 'a/b#1')?.attempts).toBe(2);
  });

  it('retry mode runs only failed items of the given kind', async () => {
    const store = openStore(':memory:');
    const errs: Record<number, () => Error> = { 2: () => new MinerError('transient', 'reset'), 4: () => new MinerError('git', 'bad object') };
    const stage = squaresStage({ count: 5, failOn: { numbers: [2, 4], error: () => new Error('x') } });
    stage.process = ((orig) => async (item, ctx) => {
      const e = errs[item.input.n];
      if (e) throw e();
      return orig(item, ctx);
    })(stage.process.bind(stage));
    await runStages(ctxFor(store), { stages: [stage], repos: ['a/b'] });
    const seen: number[] = [];
    await runStages(ctxFor(store), { stages: [squaresStage({ count: 5, onProcess: (n) => seen.push(n) })], repos: ['a/b'], onlyFailed: { kind: 'transient' } });
    expect(seen).toEqual([2]);
  });

  it('an aborted signal stops after the items in flight', async () => {
    const store = openStore(':memory:');
    const controller = new AbortController();
    const stage = squaresStage({ count: 100, onProcess: (n) => { if (n === 5) controller.abort(); } });
    const summary = await runStages(ctxFor(store, controller.signal), { stages: [stage], repos: ['a/b'], concurrency: 1 });
    expect(summary.interrupted).toBe(true);
    expect(rows(store)).toHaveLength(5);
  });

  it('processes items concurrently without losing or duplicating any', async () => {
    const store = openStore(':memory:');
    const summary = await runStages(ctxFor(store), { stages: [squaresStage({ count: 60, delayMs: 2 })], repos: ['a/b', 'c/d'], concurrency: 8 });
    expect(summary.stages[0]!.processed).toBe(120);
    expect(rows(store)).toHaveLength(120);
    expect(new Set(rows(store).map((r) => r.key)).size).toBe(120);
  });
});
