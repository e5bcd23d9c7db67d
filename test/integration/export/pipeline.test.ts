import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportManifests } from '../../../src/export/manifest.js';
import { SCHEMA_VERSION } from '../../../src/export/records.js';
import { backwardDigestOfRows, forwardDigestOfCase } from '../../../src/review/digest.js';
import { openStore } from '../../../src/store/db.js';
import { sha256 } from '../../../src/util/canonical.js';
import { jsonLines } from '../../support/cli.js';
import { tempDir } from '../../support/make-repo.js';
import { admitStage } from '../../../src/stages/admit.js';
import { buildWorld, REPO, runWorld } from './world.js';

const FILES = ['backward.jsonl', 'backward.meta.json', 'candidates.jsonl', 'candidates.meta.json', 'forward.jsonl', 'forward.meta.json', 'rejections.jsonl', 'rejections.meta.json'];

function readAll(dir: string): Record<string, string> {
  return Object.fromEntries(FILES.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

describe('admission and export on a real repository', () => {
  it('admits the clean cases, records every rejection, and exports byte-identical manifests', async () => {
    const dir = await tempDir('r2v-export-');
    const store = openStore(join(dir, 'r2v.db'));
    try {
      const world = await buildWorld(store);
      const first = await runWorld(store, dir, world.repo.dir);
      expect(first.failed).toBe(0);

      const out1 = join(dir, 'm1');
      exportManifests(store, { out: out1 });
      const files = readAll(out1);
      expect(readdirSync(out1).sort()).toEqual([...FILES].sort());

      // No probe spec: the resolved, clean Backward case is a candidate, not admitted.
      expect(jsonLines(files['backward.jsonl']!)).toEqual([]);
      const backward = jsonLines(files['candidates.jsonl']!);
      expect(backward.map((r) => r.number)).toEqual([1]);
      const b = backward[0]!;
      expect(b.blockers).toEqual([expect.objectContaining({ gate: 'candidate', stage: 'probe', code: 'probe-missing' })]);
      expect(b).toMatchObject({
        task: 'backward',
        tier: 'candidate',
        repo: REPO,
        gold: world.gold,
        cutoff: world.cutoff,
        cutoff_rule: 'first-parent-by-date',
        history_window: 2,
        default_branch: 'main',
        probe: { boundary: null, draft: false },
        source: { issue_url: `https://github.com/${REPO}/issues/1`, attribution_url: `https://github.com/${REPO}/issues/1` },
      });
      expect(b.case_id).toMatch(/^acme_widget__1__[0-9a-f]{8}$/);
      expect(Object.values(b.checks as Record<string, boolean>)).toEqual(Array(8).fill(true));
      expect(b.report as string).not.toContain(world.gold.slice(0, 7));
      expect(b.report as string).toContain('TypeError: Cannot read properties of undefined');
      expect((b.source as { quote: string }).quote).toContain('is the first bad commit');
      expect((b.digests as { cutoff_tree: string }).cutoff_tree).toBe(await world.repo.git(['rev-parse', `${world.cutoff}^{tree}`]));

      const forward = jsonLines(files['forward.jsonl']!);
      expect(new Map(forward.map((r) => [r.pull, r.gold]))).toEqual(
        new Map([[50, ['.github/workflows/ci.yml']], [51, ['.github/workflows/docs.yml']], [52, []]]),
      );
      expect(forward.every((r) => r.tier === 'admitted' && Array.isArray(r.blockers) && (r.blockers as unknown[]).length === 0)).toBe(true);
      const f50 = forward.find((r) => r.pull === 50)!;
      expect(f50).toMatchObject({
        task: 'forward',
        issue: 40,
        base: world.cutoff,
        context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' },
        changed_paths: ['src/render.js'],
        evaluator: 'routing/1',
        source: { issue_url: `https://github.com/${REPO}/issues/40`, pr_url: `https://github.com/${REPO}/pull/50`, link_kind: 'closing-references' },
      });

      // The case whose gold equals the repository prior is admitted, not filtered; the prior is its baseline.
      expect(forward.find((r) => r.pull === 52)).toMatchObject({ issue: 42, baselines: { repo_prior: { answer: [], correct: true, version: 'repo-prior/1' } } });
      expect(f50.baselines).toEqual({ repo_prior: { answer: [], correct: false, version: 'repo-prior/1' } });
      expect((f50.labels as { staging: { proposed_by: string; value: string } }).staging).toMatchObject({ proposed_by: 'rule', value: expect.stringMatching(/^(direct|staged)$/) });

      // Backward baselines and labels are per-case data on the record.
      const bl = b.baselines as Record<string, { answer: string | null; correct: boolean; version: string; gold_rank: number | null }>;
      expect(Object.keys(bl).sort()).toEqual(['bm25_diffs', 'bm25_messages', 'recent_1']);
      expect(bl.recent_1).toMatchObject({ correct: false, gold_rank: 3, version: 'recent-1/1' });
      expect(bl.recent_1!.answer).toBe(world.cutoff);
      for (const v of Object.values(bl)) expect(v.correct).toBe(v.answer === world.gold);
      const labels = b.labels as Record<string, { value: string; proposed_by: string; evidence: string } | string>;
      expect(labels.version).toBe('labels/1');
      expect(labels.locality).toMatchObject({ proposed_by: 'rule', value: expect.stringMatching(/^(local|cross)$/) });
      expect(labels.staging).toMatchObject({ proposed_by: 'rule', value: expect.stringMatching(/^(direct|staged)$/) });

      // Every case not admitted and not a candidate is in rejections.jsonl with its reason codes and evidence.
      const rejections = jsonLines(files['rejections.jsonl']!);
      const byNumber = new Map(rejections.map((r) => [r.number, r]));
      expect([...byNumber.keys()].sort()).toEqual([2]);
      const hedged = byNumber.get(2)! as { tier: string; reasons: { code: string; stage: string; evidence: string }[] };
      expect(hedged.tier).toBe('rejected');
      expect(hedged.reasons.map((r) => [r.stage, r.code])).toEqual([['attribute', 'hedged']]);
      expect(hedged.reasons[0]!.evidence.length).toBeGreaterThan(0);

      // Records are sorted by case id, canonical (sorted keys), with matching sidecars.
      for (const name of ['backward', 'forward', 'candidates', 'rejections']) {
        const text = files[`${name}.jsonl`]!;
        const recs = jsonLines(text);
        const ids = recs.map((r) => r.case_id as string);
        expect(ids).toEqual([...ids].sort());
        for (const raw of text.split('\n').filter((l) => l.length > 0)) {
          const keys = Object.keys(JSON.parse(raw) as object);
          expect(keys).toEqual([...keys].sort());
        }
        const meta = JSON.parse(files[`${name}.meta.json`]!) as Record<string, unknown>;
        expect(meta).toMatchObject({ schema_version: SCHEMA_VERSION, file: `${name}.jsonl`, sha256: sha256(text) });
        // The Forward evaluator is named only where Forward golds are: not in the Backward sidecar.
        if (name === 'backward') expect(meta).not.toHaveProperty('evaluator');
        else expect(meta.evaluator).toBe('routing/1');
        expect((meta.counts as { records: number }).records).toBe(recs.length);
      }
      const rmeta = JSON.parse(files['rejections.meta.json']!) as { counts: { by_reason: Record<string, number>; by_repo: Record<string, number> } };
      expect(rmeta.counts.by_repo).toEqual({ [REPO]: 1 });
      expect(rmeta.counts.by_reason.hedged).toBe(1);

      // Same database → byte-identical files.
      const out2 = join(dir, 'm2');
      exportManifests(store, { out: out2 });
      expect(readAll(out2)).toEqual(files);

      // Re-running every stage on the same inputs (forced) → byte-identical files again.
      const again = await runWorld(store, dir, world.repo.dir, { force: true });
      expect(again.failed).toBe(0);
      const out3 = join(dir, 'm3');
      exportManifests(store, { out: out3 });
      expect(readAll(out3)).toEqual(files);
      expect(store.admission.count()).toBe(5);

      // --require-review: without a ledger nothing has a human accept, so every case not rejected is a candidate.
      const review = exportManifests(store, { out: join(dir, 'review'), requireReview: true, task: 'forward' });
      expect(review.files.map((f) => [f.name, f.records])).toEqual([['forward.jsonl', 0], ['candidates.jsonl', 3], ['rejections.jsonl', 0]]);

      // A verified probe (stored by the probe stage's table) admits the Backward case.
      const caseId = b.case_id as string;
      store.probes.replaceCase({
        caseId, repo: REPO, number: 1, status: 'replayed', specPath: 'probes/x.yaml', specDigest: 'd', draft: false, draftPath: null,
        draftKind: null, goldSha: world.gold, parentSha: null, parentVerdict: 'good', parentWhy: 'ok', goldVerdict: 'bad', goldWhy: 'crash',
        boundary: 'verified', observed: 'verified', reason: 'verified', repeats: 3, networkIsolated: true, finishedAt: '2024-06-01T00:00:00Z',
      }, []);
      const admit = await runWorld(store, dir, world.repo.dir, { stages: [admitStage] });
      expect(admit.stages[0]).toMatchObject({ done: 1, rejected: 0 });
      const verified = exportManifests(store, { out: join(dir, 'verified'), task: 'backward' });
      expect(verified.files.map((f) => [f.name, f.records])).toEqual([['backward.jsonl', 1], ['candidates.jsonl', 0], ['rejections.jsonl', 1]]);
      const rec = jsonLines(readFileSync(join(dir, 'verified', 'backward.jsonl'), 'utf8'))[0]!;
      expect(rec.probe).toEqual({ boundary: 'verified', parent: 'good', gold: 'bad', reason: 'verified', draft: false, kind: 'command' });
      expect(rec.tier).toBe('admitted');

      // Human decisions from the review ledger: an accept admits under --require-review and clears an
      // open flag; a reject blocks whatever the selection.
      const ledger = store.review;
      const bt = store.backward;
      const cases = new Map(store.forward.cases([REPO]).map((c) => [c.pull, c]));
      const decide = (caseKey: string, task: 'backward' | 'forward', decision: 'accept' | 'reject', inputDigest: string): void =>
        void ledger.append({ caseKey, task, reviewer: 'alice', decision, reason: 'read it', inputDigest, recordedAt: '2024-06-02T00:00:00Z', source: 'human' });
      decide(`${REPO}#1`, 'backward', 'accept', backwardDigestOfRows({ report: bt.report(REPO, 1), record: bt.caseOf(REPO, 1), attributions: bt.attributions(REPO, 1) })!);
      decide(`${REPO}#42<-52`, 'forward', 'accept', forwardDigestOfCase(cases.get(52)!)!);
      decide(`${REPO}#41<-51`, 'forward', 'reject', forwardDigestOfCase(cases.get(51)!)!);
      await runWorld(store, dir, world.repo.dir, { stages: [admitStage], runOptions: { requireReview: true } });
      const reviewed = exportManifests(store, { out: join(dir, 'reviewed'), requireReview: true });
      expect(reviewed.files.map((f) => [f.name, f.records])).toEqual([['backward.jsonl', 1], ['forward.jsonl', 1], ['candidates.jsonl', 1], ['rejections.jsonl', 2]]);
      expect(jsonLines(readFileSync(join(dir, 'reviewed', 'forward.jsonl'), 'utf8')).map((r) => r.pull)).toEqual([52]);
      const why = new Map(jsonLines(readFileSync(join(dir, 'reviewed', 'rejections.jsonl'), 'utf8')).map((r) => [r.number, (r.reasons as { code: string }[]).map((x) => x.code)]));
      expect(why).toEqual(new Map([[2, ['hedged']], [41, ['review-rejected']]]));
      const waiting = jsonLines(readFileSync(join(dir, 'reviewed', 'candidates.jsonl'), 'utf8'));
      expect(waiting.map((r) => [r.issue, (r.blockers as { code: string }[]).map((x) => x.code)])).toEqual([[40, ['review-required']]]);
      const plain = exportManifests(store, { out: join(dir, 'plain'), task: 'forward' });
      expect(jsonLines(readFileSync(join(dir, 'plain', 'forward.jsonl'), 'utf8')).map((r) => r.pull).sort()).toEqual([50, 52]);
      expect(plain.files[2]).toMatchObject({ name: 'rejections.jsonl', records: 1 });
    } finally {
      store.close();
    }
  });
});
