import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backwardBaselines } from '../../../src/baselines/index.js';
import { RepoHistory } from '../../../src/baselines/history.js';
import { makeRepo } from '../../support/make-repo.js';

const REPORT = `Rendering a page with an empty box fails since 2.3:

    TypeError: Cannot read properties of undefined (reading 'width')
        at measure (src/layout/box.js:14)

Steps: render an empty box.`;

/** A history where the answer of each baseline is known. */
async function buildHistory() {
  const repo = await makeRepo();
  const base = await repo.commit('Initial layout engine', { files: { 'src/layout/box.js': 'export function measure(b) {\n  return b.size;\n}\n', 'README.md': 'engine\n' } });
  const docs = await repo.commit('docs: describe the install steps', { files: { 'README.md': 'engine\ninstall with npm\n' } });
  // The culprit: its message repeats the report's error text, its diff touches the reported file.
  const culprit = await repo.commit("layout: read width from the child\n\nMeasuring now reads child.width; TypeError: Cannot read properties of undefined (reading 'width') when empty", {
    files: { 'src/layout/box.js': 'export function measure(b) {\n  return b.child.width;\n}\n' },
  });
  const tooling = await repo.commit('ci: cache dependencies', { files: { '.github/workflows/ci.yml': 'on: push\n' } });
  const cutoff = tooling;
  // After the cutoff: an even better message match the case must never see.
  const later = await repo.commit(`Fix ${REPORT}`, { files: { 'src/layout/box.js': 'export function measure(b) {\n  return b.child?.width ?? 0;\n}\n' } });
  return { repo, gitDir: join(repo.dir, '.git'), base, docs, culprit, tooling, cutoff, later };
}

describe('Backward baselines on a generated repository', () => {
  it('Recent-1 is right when the gold is the tip of the visible history, and ranks the gold otherwise', async () => {
    const h = await buildHistory();
    const history = new RepoHistory(h.gitDir);
    await history.ensure(h.cutoff);
    const atTip = backwardBaselines(history, { cutoff: h.culprit, gold: h.culprit, report: REPORT })!;
    expect(atTip.recent_1).toEqual({ answer: h.culprit, correct: true, version: 'recent-1/1', gold_rank: 1 });
    const below = backwardBaselines(history, { cutoff: h.cutoff, gold: h.culprit, report: REPORT })!;
    expect(below.recent_1).toEqual({ answer: h.tooling, correct: false, version: 'recent-1/1', gold_rank: 2 });
  });

  it('BM25 over messages and over paths + diffs rank the commit that repeats the error text first; later commits are never seen', async () => {
    const h = await buildHistory();
    const history = new RepoHistory(h.gitDir);
    await history.ensure(h.cutoff);
    const b = backwardBaselines(history, { cutoff: h.cutoff, gold: h.culprit, report: REPORT })!;
    expect(b.bm25_messages).toEqual({ answer: h.culprit, correct: true, version: 'bm25-messages/1', gold_rank: 1 });
    expect(b.bm25_diffs).toMatchObject({ answer: h.culprit, correct: true, gold_rank: 1 });
    // With the later commit visible, it wins on messages: visibility is what keeps it out above.
    await history.ensure(h.later);
    const leaky = backwardBaselines(history, { cutoff: h.later, gold: h.culprit, report: REPORT })!;
    expect(leaky.bm25_messages.answer).toBe(h.later);
    expect(leaky.bm25_messages.gold_rank).toBe(2);
    // Indexed once: the second ensure read only the missing commit.
    expect(history.commits.map((c) => c.sha)).toEqual([h.tooling, h.culprit, h.docs, h.base, h.later]);
    expect(history.commits[1]!.paths).toEqual(['src/layout/box.js']);
  });

  it('leaves merge commits out of every answer and extends the index for a cutoff on another line', async () => {
    const h = await buildHistory();
    await h.repo.git(['checkout', '-q', '-b', 'side', h.docs]);
    const side = await h.repo.commit('side: TypeError Cannot read properties of undefined reading width', { files: { 'side.txt': 'x\n' } });
    await h.repo.git(['checkout', '-q', 'main']);
    const merge = await h.repo.merge('side', { message: "Merge side: TypeError: Cannot read properties of undefined (reading 'width')", ff: 'never' });
    const history = new RepoHistory(h.gitDir);
    await history.ensure(h.cutoff);
    expect(history.indexOf(side)).toBeUndefined();
    await history.ensure(merge);
    const b = backwardBaselines(history, { cutoff: merge, gold: h.culprit, report: REPORT })!;
    expect(b.recent_1.answer).not.toBe(merge);
    expect([b.bm25_messages.answer, b.bm25_diffs.answer]).not.toContain(merge);
    expect(backwardBaselines(history, { cutoff: 'f'.repeat(40), gold: h.culprit, report: REPORT })).toBeNull();
  });

  it('fails with a git error naming the revision when the cutoff is not a commit', async () => {
    const h = await buildHistory();
    const history = new RepoHistory(h.gitDir);
    await expect(history.ensure('0'.repeat(40))).rejects.toThrow(/git/);
  });
});
