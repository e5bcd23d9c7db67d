import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storeThread } from '../backward/pipeline-fixture.js';
import { buildWorld, ledgerRows, reviewThreadComment, runPipeline, SYMPTOM, type World } from './world.js';

type Rec = Record<string, any>;

/**
 * The ids of the cases admitted but for their probe: this world writes no probe specs, so every
 * Backward case is at best a candidate blocked only by probe-missing; review decides the rest.
 */
async function admitAndExport(world: World, extra: readonly string[] = []): Promise<{ ids: string[]; bytes: string }> {
  expect((await world.cli(['--quiet', 'run', '--stage', 'admit'])).code).not.toBe(1);
  const r = await world.cli(['export', '--include-candidates', ...extra]);
  expect(r.code).toBe(0);
  const bytes = readFileSync(join(world.dir, 'manifests', 'backward.jsonl'), 'utf8');
  const records = bytes.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Rec);
  const probeOnly = (rec: Rec): boolean => (rec.blockers as Rec[]).every((b) => b.code === 'probe-missing');
  expect(records.every((rec) => rec.tier === 'candidate' && (rec.blockers as Rec[]).some((b) => b.code === 'probe-missing'))).toBe(true);
  return { ids: records.filter(probeOnly).map((rec) => rec.case_id as string), bytes };
}

describe('human review decides admission of review cases', () => {
  it('admits a review case only with a human accept on its current inputs, across re-exports and re-runs', async () => {
    const world = await buildWorld({ forward: false });
    await runPipeline(world);
    const cases = (await world.cli(['review', 'export', '--include-candidates'])).stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Rec);
    const [c1, c2] = cases;
    expect([c1!.case_key, c2!.case_key]).toEqual(['acme/widget#1', 'acme/widget#2']);

    // No decision: the candidate is admitted, the review case is not; under --require-review neither is.
    expect((await admitAndExport(world)).ids).toEqual([c1!.case_id]);
    expect((await admitAndExport(world, ['--require-review'])).ids).toEqual([]);

    // A screener's accept is a proposal only: nothing changes.
    writeFileSync(join(world.dir, 'screener.mjs'), `process.stdin.resume(); process.stdin.on('end', () => process.stdout.write(JSON.stringify({ decision: 'accept', reasons: ['fine'], quotes: ['Looks like #12 again.'] })));\n`);
    world.writeConfig(['screener:', '  name: proposer', '  command: ["node", "screener.mjs"]']);
    expect((await world.cli(['review', 'screen'], { PATH: process.env.PATH })).code).toBe(0);
    expect((await admitAndExport(world, ['--require-review'])).ids).toEqual([]);

    // A human accept on the exported digest admits it.
    writeFileSync(
      join(world.dir, 'decisions.jsonl'),
      `${JSON.stringify({ case_id: c2!.case_id, reviewer: 'alice', decision: 'accept', reason: 'the bisect is about this crash', input_digest: c2!.input_digest })}\n`,
    );
    expect((await world.cli(['review', 'import', 'decisions.jsonl'])).code).toBe(0);
    const admitted = await admitAndExport(world, ['--require-review']);
    expect(admitted.ids).toEqual([c2!.case_id]);
    expect((await admitAndExport(world)).ids).toEqual([c1!.case_id, c2!.case_id]);
    const rows = ledgerRows(world);
    expect(rows).toHaveLength(2);

    // Re-export and a forced re-run of the stages: same manifest bytes, same ledger.
    expect((await admitAndExport(world, ['--require-review'])).bytes).toBe(admitted.bytes);
    await runPipeline(world, true);
    expect((await admitAndExport(world, ['--require-review'])).bytes).toBe(admitted.bytes);
    expect(ledgerRows(world)).toEqual(rows);

    // The report of #2 changes: the accept no longer counts and the case is pending again.
    const store = world.open();
    storeThread(store, 2, 'render crashes on nested groups again', `${SYMPTOM}\nAlso seen on Windows.`, [reviewThreadComment(world.gold)], 10);
    store.close();
    await runPipeline(world);
    expect((await admitAndExport(world, ['--require-review'])).ids).toEqual([]);
    expect((await admitAndExport(world)).ids).toEqual([c1!.case_id]);
    const pending = (await world.cli(['review', 'export'])).stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Rec);
    expect(pending.map((r) => [r.case_key, r.status])).toEqual([['acme/widget#2', 'pending']]);
    expect(ledgerRows(world)).toEqual(rows);
  });
});
