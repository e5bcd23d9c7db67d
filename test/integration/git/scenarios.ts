import { makeRepo, type TestRepo } from '../../support/make-repo.js';
import { gd, tickDate } from './support.js';

/**
 * A foxtrot history. Clock ticks (hours after BASE_EPOCH) in brackets:
 *
 *   main:    c0[1] ─ c1[2] ─────────── onMain[4] ─ m2[5] ─┐
 *   feature:          └─ onFeature[3] ────────────────── M[7] (Merge branch 'main' into feature; parents onFeature, m2)
 *   then main is fast-forwarded to M and continues with after[8].
 *
 * The report is written at tick 6.5: main was at m2; onFeature (tick 3) was only on the feature branch.
 */
export interface Foxtrot {
  repo: TestRepo;
  gitDir: string;
  c1: string;
  onFeature: string;
  onMain: string;
  m2: string;
  merge: string;
  after: string;
  report: Date;
}

export async function foxtrotRepo(options: { mergeMessage?: string; prHead?: boolean } = {}): Promise<Foxtrot> {
  const repo = await makeRepo();
  await repo.commit('c0', { files: { 'a.txt': '0\n' } });
  const c1 = await repo.commit('c1', { files: { 'a.txt': '1\n' } });
  await repo.checkout('feature', { create: true });
  const onFeature = await repo.commit('feature work', { files: { 'f.txt': 'f\n' } });
  await repo.checkout('main');
  const onMain = await repo.commit('main work', { files: { 'b.txt': 'b\n' } });
  const m2 = await repo.commit('more main work', { files: { 'c.txt': 'c\n' } });
  await repo.checkout('feature');
  repo.nextTime(); // tick 6: the report is written at 6.5
  const merge = await repo.merge('main', { message: options.mergeMessage ?? "Merge branch 'main' into feature" });
  if (options.prHead) await repo.updateRef('refs/pull/5/head', merge);
  await repo.checkout('main');
  await repo.merge('feature', { ff: 'only' });
  const after = await repo.commit('after', { files: { 'd.txt': 'd\n' } });
  return { repo, gitDir: gd(repo), c1, onFeature, onMain, m2, merge, after, report: tickDate(6, true) };
}
