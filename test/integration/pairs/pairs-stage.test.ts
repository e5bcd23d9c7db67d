import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/db.js';
import { pairsStage } from '../../../src/stages/pairs.js';
import { exportPairs } from '../../../src/pairs/pairs-export.js';
import { tempDir } from '../../support/make-repo.js';
import type { StageContext } from '../../../src/stages/types.js';
import { buildWorld, contextFor, REPO } from './world.js';
import { Config } from '../../../src/config.js';

/** Plans the stage and processes + saves every item, as the runner does. */
async function runPairs(ctx: StageContext): Promise<Map<string, string>> {
  const outcomes = new Map<string, string>();
  try {
    for (const item of await pairsStage.plan(ctx, [REPO])) {
      const outcome = await pairsStage.process(item, ctx);
      ctx.store.transaction(() => outcome.save(ctx.store));
      outcomes.set(item.key, outcome.status === 'rejected' ? outcome.reason : outcome.status);
    }
  } finally {
    await ctx.services.close();
  }
  return outcomes;
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

describe('pairs stage on a generated repository', () => {
  it('ends each scenario with the right tier or reason, and exports instances, controls, patches and a sidecar', async () => {
    const store: Store = openStore(':memory:');
    const world = await buildWorld(store, { only: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25] });
    const ctx = contextFor(store, world);

    const outcomes = await runPairs(ctx);
    expect(Object.fromEntries(outcomes)).toEqual({
      [`${REPO}#1+2`]: 'done',
      [`${REPO}#3+4`]: 'textual-conflict',
      [`${REPO}#5+6`]: 'base-validity',
      [`${REPO}#7+8`]: 'composition-failed',
      [`${REPO}#9+10`]: 'flaky',
      [`${REPO}#11+12`]: 'done',
      [`${REPO}#13+14`]: 'unrelated',
      [`${REPO}#16+17`]: 'apply-failed',
      [`${REPO}#18+19`]: 'no-fail-to-pass',
      [`${REPO}#20+21`]: 'no-fail-to-pass',
      [`${REPO}#22+23`]: 'no-code-change',
      [`${REPO}#24+25`]: 'textual-conflict',
    });

    const tables = store.pairs;
    const coupled = tables.result(`${REPO}#1+2`)!;
    expect(coupled).toMatchObject({ status: 'valid', tier: 'coupled', tierBasis: 'file-overlap', baseCommit: world.base1, baseRule: 'newer-by-ancestry' });
    expect(tables.members(`${REPO}#1+2`).map((m) => [m.pr, m.codeFiles, m.failToPass])).toEqual([
      [1, ['coupled/math.sh'], ['test/mul.test.sh']],
      [2, ['coupled/math.sh'], ['test/sub.test.sh']],
    ]);
    // Every condition ran twice per test: pre and post for each PR, and the gold composition.
    const runs = tables.runs(`${REPO}#1+2`);
    expect(runs.filter((r) => r.condition === 'pre:1').map((r) => r.outcome)).toEqual(['fail', 'fail']);
    expect(runs.filter((r) => r.condition === 'post:1').map((r) => r.outcome)).toEqual(['pass', 'pass']);
    expect(runs.filter((r) => r.condition === 'gold').map((r) => `${r.testId}:${r.outcome}`)).toEqual([
      'test/mul.test.sh:pass',
      'test/mul.test.sh:pass',
      'test/sub.test.sh:pass',
      'test/sub.test.sh:pass',
    ]);

    expect(tables.result(`${REPO}#3+4`)!.evidence).toMatchObject({ conflicts: ['conflict/value.sh'], patches: 'code' });
    expect(tables.result(`${REPO}#5+6`)!.evidence).toMatchObject({ pr: 5, already_passing: ['test/bv5.test.sh'] });
    const comp = tables.result(`${REPO}#7+8`)!;
    expect(comp).toMatchObject({ tier: 'coupled', tierBasis: 'file-overlap' });
    expect(comp.evidence).toMatchObject({ failing: ['test/comp7.test.sh', 'test/comp8.test.sh'] });
    expect(tables.result(`${REPO}#9+10`)!.evidence).toMatchObject({ pr: 9, tests: ['post:9:test/flaky9.test.sh'] });
    expect(tables.result(`${REPO}#11+12`)).toMatchObject({ status: 'valid', tier: 'control', tierBasis: 'disjoint', baseCommit: world.base0 });
    expect(tables.result(`${REPO}#13+14`)).toMatchObject({ status: 'rejected', tier: 'unrelated', tierBasis: 'shared-directory' });
    expect(tables.result(`${REPO}#20+21`)).toMatchObject({
      tier: 'coupled',
      tierBasis: 'import',
      evidence: { pr: 20, detail: 'no-candidate-tests' },
    });
    expect(tables.result(`${REPO}#22+23`)).toMatchObject({ tier: null, evidence: { pr: 22, test_files: ['test/only.test.sh'] } });
    expect(tables.result(`${REPO}#24+25`)).toMatchObject({ tier: 'control', evidence: { patches: 'code+test', conflicts: ['test/shared.test.sh'] } });
    const applyFailed = tables.result(`${REPO}#16+17`)!;
    expect(applyFailed).toMatchObject({ tier: 'control', baseCommit: world.base1 });
    expect(applyFailed.evidence).toMatchObject({ pr: 16, patch: 'code', base: world.base1 });
    expect(String(applyFailed.evidence.stderr)).toMatch(/README\.md/);
    expect(tables.result(`${REPO}#18+19`)!.evidence).toMatchObject({ pr: 18, pre: { 'test/nf18.test.sh': ['fail', 'fail'] }, post: { 'test/nf18.test.sh': ['fail', 'fail'] } });

    const out1 = await tempDir('r2v-pairs-out-');
    await exportPairs(store, out1);
    const files = await listFiles(out1);
    expect(files).toEqual([
      'control.jsonl',
      'instances/acme__widgets.jsonl',
      'meta.json',
      'patches/acme__widgets/pr1/code.patch',
      'patches/acme__widgets/pr1/meta.json',
      'patches/acme__widgets/pr1/test.patch',
      'patches/acme__widgets/pr11/code.patch',
      'patches/acme__widgets/pr11/meta.json',
      'patches/acme__widgets/pr11/test.patch',
      'patches/acme__widgets/pr12/code.patch',
      'patches/acme__widgets/pr12/meta.json',
      'patches/acme__widgets/pr12/test.patch',
      'patches/acme__widgets/pr2/code.patch',
      'patches/acme__widgets/pr2/meta.json',
      'patches/acme__widgets/pr2/test.patch',
    ]);
    const instances = await readFile(join(out1, 'instances/acme__widgets.jsonl'), 'utf8');
    expect(instances).toBe(
      `{"base_commit":"${world.base1}","id":"acme__widgets__1_2","per_pr":{"1":{"code_files":["coupled/math.sh"],"fail_to_pass":["test/mul.test.sh"]},` +
        `"2":{"code_files":["coupled/math.sh"],"fail_to_pass":["test/sub.test.sh"]}},"prs":[1,2],"repo":"acme/widgets","tier":"coupled"}\n`,
    );
    const controlLine = JSON.parse(await readFile(join(out1, 'control.jsonl'), 'utf8')) as Record<string, unknown>;
    expect(controlLine).toEqual({
      id: 'acme__widgets__11_12',
      repo: REPO,
      tier: 'control',
      base_commit: world.base0,
      prs: [11, 12],
      per_pr: { '11': { code_files: ['ctl_a/one.sh'], fail_to_pass: ['test/one.test.sh'] }, '12': { code_files: ['ctl_b/two.sh'], fail_to_pass: ['test/two.test.sh'] } },
    });
    const codePatch = await readFile(join(out1, 'patches/acme__widgets/pr1/code.patch'), 'utf8');
    expect(codePatch).toContain('+mul() { echo $(($1 * $2)); }');
    expect(codePatch).not.toContain('test/mul.test.sh');
    expect(await readFile(join(out1, 'patches/acme__widgets/pr1/test.patch'), 'utf8')).toContain('+++ b/test/mul.test.sh');
    const meta = JSON.parse(await readFile(join(out1, 'meta.json'), 'utf8')) as { counts: unknown; files: Record<string, string> };
    expect(meta.counts).toEqual({
      pairs: 12,
      by_tier: { coupled: 1, control: 1 },
      rejected: 10,
      by_reason: {
        'textual-conflict': 2,
        'base-validity': 1,
        'composition-failed': 1,
        flaky: 1,
        unrelated: 1,
        'apply-failed': 1,
        'no-fail-to-pass': 2,
        'no-code-change': 1,
      },
    });
    expect(Object.keys(meta.files).sort()).toEqual(['control.jsonl', 'instances/acme__widgets.jsonl']);

    expect(store.db.prepare('SELECT COUNT(*) AS n FROM pair_members').get()).toEqual({ n: 24 });
    store.close();
  });

  it('runs each PR condition once per run when several pairs share it', async () => {
    const store: Store = openStore(':memory:');
    const world = await buildWorld(store, { only: [11, 12, 15] });
    const log = join(world.counterDir, 'executions');
    const config = Config.parse({
      repos: [{ name: REPO, git_url: world.repo.dir, test_command: `echo "$PWD {tests}" >> ${log}; sh run-test.sh {tests}` }],
      pairs: { window_days: 0, repeats: 2 },
    });
    const outcomes = await runPairs(contextFor(store, { ...world, config }));
    expect([...outcomes.values()]).toEqual(['done', 'done', 'done']);
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    // Per PR: base+test and base+code+test, 2 repeats each (3 × 4); gold: 2 tests × 2 repeats per pair (3 × 4).
    expect(lines).toHaveLength(24);
    // Every pair still stores the runs it was graded on.
    expect(store.db.prepare('SELECT key, COUNT(*) AS n FROM pair_runs GROUP BY key ORDER BY key').all()).toEqual([
      { key: `${REPO}#11+12`, n: 12 },
      { key: `${REPO}#11+15`, n: 12 },
      { key: `${REPO}#12+15`, n: 12 },
    ]);
    store.close();
  });

  it('re-running the stage and the export gives byte-identical output', async () => {
    const store: Store = openStore(':memory:');
    const world = await buildWorld(store, { only: [1, 2, 11, 12] });
    const first = await runPairs(contextFor(store, world));
    expect(Object.fromEntries(first)).toEqual({ [`${REPO}#1+2`]: 'done', [`${REPO}#11+12`]: 'done' });
    const out1 = await tempDir('r2v-pairs-out-');
    await exportPairs(store, out1);
    const files = await listFiles(out1);
    expect(files).toHaveLength(15);

    // Every item runs again (a forced re-run): rows are replaced, not duplicated.
    const again = await runPairs(contextFor(store, world));
    expect(again).toEqual(first);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM pair_members').get()).toEqual({ n: 4 });
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM pair_runs').get()).toEqual({ n: 24 });
    const out2 = await tempDir('r2v-pairs-out-');
    await exportPairs(store, out2);
    expect(await listFiles(out2)).toEqual(files);
    for (const f of files) expect((await readFile(join(out2, f))).equals(await readFile(join(out1, f))), f).toBe(true);

    // Exporting again into the same directory replaces the owned files with the same bytes.
    await exportPairs(store, out1);
    expect(await listFiles(out1)).toEqual(files);
    for (const f of files) expect((await readFile(join(out2, f))).equals(await readFile(join(out1, f))), f).toBe(true);
    store.close();
  });
});
