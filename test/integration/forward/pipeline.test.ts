import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { createStageContext } from '../../../src/run/context.js';
import { runStages } from '../../../src/run/runner.js';
import { forwardScreenStage } from '../../../src/stages/forward-screen.js';
import { linkStage } from '../../../src/stages/link.js';
import { recoverStage } from '../../../src/stages/recover.js';
import { routeStage } from '../../../src/stages/route.js';
import { openStore, type Store } from '../../../src/store/db.js';
import type { ForwardCase } from '../../../src/store/tables/forward.js';
import { isDeletionOf } from '../../../src/sanitize/delete.js';
import { tempDir } from '../../support/make-repo.js';
import { buildScenario, REPO } from './scenario.js';

const W = (name: string): string => `.github/workflows/${name}`;
const STAGES = [linkStage, recoverStage, routeStage, forwardScreenStage];

async function run(store: Store, dataDir: string, gitUrl: string) {
  const config = Config.parse({ repos: [{ name: REPO, git_url: gitUrl }] });
  const ctx = createStageContext({ store, config, log: silentLogger, signal: new AbortController().signal, dataDir, env: {} });
  try {
    return await runStages(ctx, { stages: STAGES, repos: [REPO] });
  } finally {
    await ctx.services.close();
  }
}

function count(store: Store, table: string): number {
  return (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

describe('Forward pipeline on a generated repository', () => {
  it('links, recovers, routes and screens every pair with the right outcome', async () => {
    const dataDir = await tempDir('r2v-forward-');
    const store = openStore(join(dataDir, 'r2v.db'));
    try {
      const { repo, shas } = await buildScenario(store);
      const summary = await run(store, dataDir, repo.dir);
      expect(summary.failed).toBe(0);

      const cases = new Map<number, ForwardCase>(store.forward.cases([REPO]).map((c) => [c.pull, c]));
      expect([...cases.keys()]).toEqual([101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113]);
      const outcome = (pull: number): [string, string[], string[]] => {
        const c = cases.get(pull)!;
        return [c.decision, c.reasons.map((r) => `${r.stage}:${r.code}`), c.flags.map((f) => f.code)];
      };

      // Admitted candidates.
      expect(outcome(101)).toEqual(['candidate', [], []]);
      expect(outcome(102)).toEqual(['candidate', [], []]);
      expect(outcome(103)).toEqual(['candidate', [], []]);
      expect(outcome(113)).toEqual(['candidate', [], []]);
      // Flagged for review.
      expect(outcome(105)).toEqual(['review', [], ['multi-link']]);
      expect(outcome(106)).toEqual(['review', [], ['multi-link']]);
      expect(outcome(107)).toEqual(['review', [], ['scope-ambiguous']]);
      // Rejected, each with its reason and stage.
      expect(outcome(104)).toEqual(['reject', ['route:path-limit'], []]);
      expect(outcome(108)).toEqual(['reject', ['link:not-merged'], []]);
      expect(outcome(109)).toEqual(['reject', ['link:non-default-base'], []]);
      expect(outcome(110)).toEqual(['reject', ['recover:base-missing'], []]);
      expect(outcome(111)).toEqual(['reject', ['route:no-workflows'], []]);
      expect(outcome(112)).toEqual(['reject', ['route:empty-change'], []]);

      // The rename: both paths, routed with the workflows at base.
      const c101 = cases.get(101)!;
      expect(c101).toMatchObject({
        base: shas.c1,
        base_rule: 'pr-base-sha',
        head: shas.h101,
        context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' },
        changed_paths: ['src/app/helpers.ts', 'src/app/util.ts'],
        gold: [W('lint.yml'), W('test-ts.yaml')],
        invalid: [],
        evaluator: 'routing/1',
        limit_applied: false,
        labels: { scope: 'local', top_level: ['src'], changed_paths: 2, workflows: 7 },
        source: { issue_url: `https://github.com/${REPO}/issues/1`, pr_url: `https://github.com/${REPO}/pull/101`, link_kinds: ['closing-references', 'keyword-body'] },
      });
      expect(c101.stability).toMatchObject({ alternatives: 6, changed: 0, unstable: false });
      expect(c101.prior).toEqual({ workflows: [W('lint.yml')], count: 8, paths: 18, sets: 5, equal: false });
      expect(c101.case_id).toMatch(/^acme_widgets__1__[0-9a-f]{8}$/);

      // A base the mirror lacks: the merge base with the branch at merge time, recorded as such.
      expect(cases.get(113)).toMatchObject({
        base: shas.c1,
        base_rule: 'merge-base-fallback',
        changed_paths: c101.changed_paths,
        gold: c101.gold,
        prior: c101.prior,
      });
      expect(cases.get(113)!.case_id).not.toBe(c101.case_id);

      // The squash merge: gold from the PR's own base and head.
      const c102 = cases.get(102)!;
      expect(c102).toMatchObject({ base: shas.m101, changed_paths: ['README.md', 'docs/guide.md'], gold: [W('docs.yml'), W('lint.yml')] });
      expect(c102.stability).toMatchObject({ alternatives: 4, changed: 1, fraction: 0.25, unstable: false });
      expect(c102.stability!.details).toEqual([
        { kind: 'move-to-sibling', description: 'move README.md to package.json', added: [W('test-ts.yaml')], removed: [] },
      ]);

      // The merge commit adding its own workflow: the new file is in Δ* but never in the gold.
      const c103 = cases.get(103)!;
      expect(c103).toMatchObject({
        base: shas.m102,
        changed_paths: [W('new.yml'), 'services/api/handler.py'],
        gold: [W('api.yml'), W('lint.yml'), W('test-python.yml')],
        labels: { scope: 'cross', changed_paths: 2, workflows: 7 },
      });

      const t = store.forward;
      expect(t.recovery(REPO, 3, 103)!.workflows.map((w) => w.path)).not.toContain(W('new.yml'));
      expect(t.recovery(REPO, 5, 105)!.workflows.map((w) => w.path)).toContain(W('new.yml'));

      // After #103 merged, its workflow is part of S_t for later PRs.
      expect(cases.get(105)).toMatchObject({ gold: [W('lint.yml'), W('test-ts.yaml')], labels: { workflows: 8 } });
      expect(cases.get(106)!.gold).toEqual([W('docs.yml'), W('lint.yml')]);
      expect(cases.get(107)!.gold).toEqual([W('lint.yml')]);
      expect(cases.get(107)!.stability).toMatchObject({ alternatives: 1, changed: 1, flips: [{ workflow: W('test-ts.yaml'), count: 1 }] });

      // The 301-file PR keeps its limited gold for audit.
      expect(cases.get(104)).toMatchObject({ gold: [W('lint.yml')], limit_applied: true });
      expect(cases.get(104)!.changed_paths).toHaveLength(301);

      // The agent-visible issue: nothing after the PR was opened, no reference to it.
      const c2 = cases.get(102)!;
      expect(c2.issue_text).toBe(
        'Document empty input\n\nThe guide says nothing about empty input (docs/guide.md).\n\n\n--- comment by @alice at 2024-03-05T00:00:00Z ---\n\nAlso README.md should link the guide.',
      );
      expect(c2.deletions.map((d) => d.text)).toEqual([`Update: fixed in https://github.com/${REPO}/pull/102, thanks!`]);
      for (const c of cases.values()) {
        if (c.issue_text === null) continue;
        expect(c.issue_text).not.toMatch(new RegExp(`/pull/${c.pull}\\b|#${c.pull}\\b`));
        expect(c.issue_text).not.toContain('Merged, closing');
        expect(c.issue_text).not.toContain('Opened #');
      }
      const stored = store.forward.case(REPO, 2, 102)!;
      const thread = store.db.prepare('SELECT body FROM threads WHERE repo = ? AND number = 2').get(REPO) as { body: string };
      const original = `Document empty input\n\n${thread.body}\n\n--- comment by @alice at 2024-03-05T00:00:00Z ---\n\nAlso README.md should link the guide.`;
      expect(isDeletionOf(original, stored.issueText, stored.deletions)).toBe(true);
      expect(stored.excludedComments.map((c) => c.id)).toEqual([22, 23]);

      // Re-running changes nothing and duplicates nothing.
      const before = ['forward_links', 'forward_recoveries', 'forward_golds', 'forward_cases', 'forward_priors'].map((t) => count(store, t));
      expect(before).toEqual([13, 11, 10, 7, 4]);
      const again = await run(store, dataDir, repo.dir);
      expect(again.stages.map((s) => s.processed)).toEqual([0, 0, 0, 0]);
      expect(['forward_links', 'forward_recoveries', 'forward_golds', 'forward_cases', 'forward_priors'].map((t) => count(store, t))).toEqual(before);
    } finally {
      store.close();
    }
  });
});
