import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeStage } from '../../../src/stages/attribute.js';
import { resolveStage } from '../../../src/stages/resolve.js';
import { validateStage } from '../../../src/stages/validate.js';
import { sanitizeStage } from '../../../src/stages/sanitize.js';
import { screenStage } from '../../../src/stages/screen.js';
import type { ItemOutcome, Stage } from '../../../src/stages/types.js';
import { openStore } from '../../../src/store/db.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';
import { collidingCommits, REPO, runStage, stageContext, storeThread, SYMPTOM } from './pipeline-fixture.js';

const STAGES: readonly Stage<any>[] = [attributeStage, resolveStage, validateStage, sanitizeStage, screenStage];

const TABLES = [
  'backward_attributions',
  'backward_text_screens',
  'backward_resolutions',
  'backward_cases',
  'backward_checks',
  'backward_reports',
  'backward_screens',
  'backward_reasons',
];

describe('Backward stages on a real repository', () => {
  it('decides clean, ambiguous, side-branch and planted-leak threads, and re-runs without duplicates', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import', { files: { 'src/flatten.js': 'v1\n' } }); // 1h
    const c2 = await repo.commit('Add renderer', { files: { 'src/render.js': 'r\n' } }); // 2h
    await repo.tag('v2.3.0', c2);
    const gold = await repo.commit('Rework the path flattener', { files: { 'src/flatten.js': 'v2\n' } }); // 3h
    const c4 = await repo.commit('Tidy docs', { files: { 'README.md': 'docs\n' } }); // 4h
    await repo.checkout('feature', { create: true });
    const side = await repo.commit('Experimental flattener cache', { files: { 'src/cache.js': 'c\n' } }); // 5h
    await repo.checkout('main');
    const c6 = await repo.commit('Bump version to 2.4.0', { files: { 'package.json': '{"version":"2.4.0"}\n' } }); // 6h
    await repo.commit('Fix flattener crash', { files: { 'src/flatten.js': 'v3\n' }, time: repo.nextTime() + 30 * 3600 }); // after the reports
    const ambiguous = await collidingCommits(repo, c4);
    const dir = await tempDir();
    const st = openStore(join(dir, 'r2v.db'));
    const store = (): typeof st => st;
    const snapshot = (): Record<string, unknown[]> =>
      Object.fromEntries(TABLES.map((t) => [t, st.db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).all()]));

    // #1: a clean bisect transcript in the body.
    storeThread(
      store(),
      1,
      'render crashes on nested groups in 2.4.0',
      `${SYMPTOM}\n\nI ran git bisect between v2.3.0 and main:\n\n\`\`\`\n${gold} is the first bad commit\ncommit ${gold}\nAuthor: Test Author <author@example.com>\nDate:   Mon Jan 1 03:00:00 2024 +0000\n\n    Rework the path flattener\n\`\`\`\n`,
      [],
      10,
    );
    // #2: an ambiguous abbreviation.
    storeThread(store(), 2, 'render crashes on nested groups', SYMPTOM, [`I bisected it to ${ambiguous.prefix}.`], 60);
    // #3: the culprit sits on a side branch.
    storeThread(store(), 3, 'render crashes with the cache enabled', SYMPTOM, [`git bisect says ${side} is the first bad commit.`], 10);
    // #4: a gold prefix pasted in the body (not an attribution), the attribution in a comment.
    storeThread(
      store(),
      4,
      'render crashes on nested groups (dev build)',
      `${SYMPTOM}\n\n\`\`\`\n$ widget --version\nwidget 2.4.0-dev build ${gold.slice(0, 10)}\n\`\`\``,
      [`Bisected to ${gold.slice(0, 9)}.`],
      10,
    );

    const ctx = stageContext(st, join(dir, 'data'), repo.dir);
    try {
      const outcomes: Map<string, ItemOutcome>[] = [];
      for (const stage of STAGES) outcomes.push(await runStage(stage, ctx));
      const tables = st.backward;

      // #1 clean: candidate, right gold, cutoff, all checks pass, SHA gone from the report.
      const case1 = tables.caseOf(REPO, 1)!;
      expect(case1).toMatchObject({ status: 'resolved', gold, parent: await repo.rev(`${gold}^`), cutoff: c6 });
      expect(case1.cutoffRule).toBe('first-parent-by-date');
      expect(case1.historyWindow).toBe(2);
      expect(case1.tag).toBe('v2.3.0');
      expect(case1.tagWindow).toBe(3);
      expect(case1.caseId).toMatch(/^acme_widget__1__[0-9a-f]{8}$/);
      const checks1 = tables.checks(REPO, 1);
      expect(checks1.map((c) => c.name).sort()).toEqual(
        ['ancestor-of-cutoff', 'exists', 'full-sha', 'is-commit', 'non-merge', 'on-default-branch', 'parent-consistent', 'temporal'],
      );
      expect(checks1.every((c) => c.pass)).toBe(true);
      const report1 = tables.report(REPO, 1)!;
      expect(report1.text).not.toContain(gold.slice(0, 7));
      expect(report1.text).not.toContain('Rework the path flattener');
      expect(report1.text).toContain('TypeError: Cannot read properties of undefined (reading "points")');
      expect(report1.text).toContain('It works fine with 2.3.0.');
      expect(report1.leakOk).toBe(true);
      expect(tables.screen(REPO, 1)).toEqual({ repo: REPO, number: 1, caseId: case1.caseId, decision: 'candidate', reasons: [] });
      expect(tables.resolvedCases([REPO]).map((c) => c.number)).toEqual([1, 3, 4]);
      expect(tables.casesWithDecision('candidate', [REPO]).map((c) => c.number)).toEqual([1, 4]);

      // #2 ambiguous: rejected at resolve with both candidates as evidence.
      expect(outcomes[1]!.get(`${REPO}#2`)).toMatchObject({ status: 'rejected', reason: 'ambiguous-sha' });
      const reasons2 = tables.stageReasons('resolve', REPO, 2);
      expect(reasons2.map((r) => r.code)).toEqual(['ambiguous-sha']);
      expect(reasons2[0]!.evidence).toContain(ambiguous.shas[0]);
      expect(reasons2[0]!.evidence).toContain(ambiguous.shas[1]);
      expect(tables.resolutions(REPO, 2)[0]).toMatchObject({ status: 'ambiguous', sha: null, candidates: [...ambiguous.shas].sort() });
      expect(tables.screen(REPO, 2)!.decision).toBe('reject');

      // #3 side branch: structural failure, one row per check with evidence.
      // The ledger reason (what `r2v status` groups rejections by) names the failing checks.
      expect(outcomes[2]!.get(`${REPO}#3`)).toMatchObject({ status: 'rejected', reason: 'structural-check-failed:ancestor-of-cutoff,on-default-branch' });
      const failed3 = tables.checks(REPO, 3).filter((c) => !c.pass).map((c) => c.name).sort();
      expect(failed3).toEqual(['ancestor-of-cutoff', 'on-default-branch']);
      const screen3 = tables.screen(REPO, 3)!;
      expect(screen3.decision).toBe('reject');
      expect(screen3.reasons.filter((r) => r.code === 'structural-check-failed').map((r) => r.evidence.split(':')[0]).sort()).toEqual(failed3);

      // #4 planted leak: the paste's prefix removed by the SHA detector, audit clean, candidate.
      const report4 = tables.report(REPO, 4)!;
      const pasted = report4.original.indexOf(gold.slice(0, 10));
      expect(pasted).toBeGreaterThan(0);
      expect(report4.deletions).toContainEqual({ start: pasted, end: pasted + 10, detector: 'sha' });
      expect(report4.text).toContain('widget 2.4.0-dev build \n');
      expect(report4.leakOk).toBe(true);
      expect(tables.screen(REPO, 4)!.decision).toBe('candidate');

      // Re-running every stage gives identical rows, no duplicates.
      const before = snapshot();
      for (const stage of STAGES) await runStage(stage, ctx);
      expect(snapshot()).toEqual(before);
      expect(before.backward_cases!.length).toBe(4);
    } finally {
      await ctx.services.close();
      st.close();
    }
  });

  it('replaces downstream rows when a thread stops qualifying', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const gold = await repo.commit('Rework the path flattener');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    const st = openStore(join(dir, 'r2v.db'));
    const ctx = stageContext(st, join(dir, 'data'), repo.dir);
    try {
      storeThread(st, 5, 'render crashes on nested groups', SYMPTOM, [`Bisected it to ${gold.slice(0, 9)}.`], 10);
      for (const stage of STAGES) await runStage(stage, ctx);
      const tables = st.backward;
      expect(tables.screen(REPO, 5)!.decision).toBe('candidate');
      expect(tables.checks(REPO, 5)).toHaveLength(8);

      // A later comment retracts the bisect: the thread changes, every stage re-plans it.
      storeThread(st, 5, 'render crashes on nested groups', SYMPTOM, [
        `Bisected it to ${gold.slice(0, 9)}.`,
        'Sorry, my bisect was wrong: the good build was misconfigured, ignore that commit.',
      ], 10);
      const outcomes: Map<string, ItemOutcome>[] = [];
      for (const stage of STAGES) outcomes.push(await runStage(stage, ctx));
      expect(outcomes[0]!.get(`${REPO}#5`)).toMatchObject({ status: 'rejected', reason: 'retracted' });
      expect(tables.caseOf(REPO, 5)).toBeUndefined();
      expect(tables.resolutions(REPO, 5)).toEqual([]);
      expect(tables.checks(REPO, 5)).toEqual([]);
      expect(tables.report(REPO, 5)).toBeUndefined();
      const screen = tables.screen(REPO, 5)!;
      expect(screen.decision).toBe('reject');
      expect(screen.reasons.map((r) => [r.stage, r.code])).toEqual([['attribute', 'retracted']]);
      expect(screen.reasons[0]!.evidence.length).toBeGreaterThan(0);
    } finally {
      await ctx.services.close();
      st.close();
    }
  });
});
