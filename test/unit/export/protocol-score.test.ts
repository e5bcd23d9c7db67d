import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestRecord } from '../../../src/export/read-manifest.js';
import { protocolScore, stratumOf } from '../../../src/export/protocol-score.js';
import { DEFAULT_BOOTSTRAP } from '../../../src/export/metrics.js';
import { runCliCaptured } from '../../support/cli.js';

const sha = (c: string): string => c.repeat(40);
const fwd = (id: string, repo: string, gold: string[], extra: Record<string, unknown> = {}) =>
  ManifestRecord.parse({
    task: 'forward', case_id: id, repo, issue: 1, pull: 2, issue_text: 't', base: sha('a'), head: null,
    context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' }, changed_paths: ['src/x'], gold, evaluator: 'routing/1',
    source: { issue_url: null, pr_url: null }, digests: { base_tree: null, workflows: null, changed_paths: null, context: null }, ...extra,
  });
const CI = '.github/workflows/ci.yml';
const LINT = '.github/workflows/lint.yml';
const records = [
  fwd('o_a__1__00000001', 'o/a', [CI], { labels: { staging: { value: 'direct', proposed_by: 'rule', evidence: '' }, scope: 'local' }, baselines: { repo_prior: { answer: [CI], correct: true } } }),
  fwd('o_a__2__00000002', 'o/a', [LINT], { labels: { staging: { value: 'staged', proposed_by: 'review', evidence: '' }, scope: 'cross' }, baselines: { repo_prior: { answer: [CI], correct: false } } }),
  fwd('o_b__3__00000003', 'o/b', [], { baselines: { repo_prior: { answer: [], correct: true } } }),
];
const pair = (id: string, pairedGold: string[]) => ({
  case_id: id, repo: 'o/a', status: 'paired' as const, base: sha('a'), paired_sha: sha('b'), distance: 3, gold: [CI], paired_gold: pairedGold,
  flipped: [CI], bound: 500, searched: 3, why: null, evaluator: 'routing/1',
});
const line = (n: number, value: unknown) => ({ lineNumber: n, value });

const bwd = (id: string, gold: string, baselines: Record<string, unknown>) =>
  ManifestRecord.parse({
    task: 'backward', case_id: id, repo: 'o/c', number: 9, report: 'r', report_time: '2024-01-01T00:00:00Z', default_branch: 'main',
    cutoff: sha('c'), gold, parent: null, history_window: 1, checks: {}, digests: { cutoff_tree: null }, baselines,
    labels: { locality: { value: 'cross', proposed_by: 'rule', evidence: '' }, staging: { value: 'direct', proposed_by: 'rule', evidence: '' } },
  });

describe('protocol scoring', () => {
  it('maps each baseline name to its recorded answer', async () => {
    const base = { recent_1: { answer: sha('c') }, bm25_messages: { answer: sha('d') }, bm25_diffs: { answer: sha('e') } };
    const dir = mkdtempSync(join(tmpdir(), 'r2v-score-b-'));
    writeFileSync(join(dir, 'backward.jsonl'), `${JSON.stringify(bwd('o_c__9__00000009', sha('d'), base))}\n`);
    const got: Record<string, number> = {};
    for (const b of ['recent-1', 'bm25-msg', 'bm25-diff']) {
      const r = await runCliCaptured(['score', '--manifest', 'backward.jsonl', '--baseline', b, '--json', '--resamples', '10'], dir);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as { correct: number; metrics: { strata: { name: string }[] } };
      got[b] = out.correct;
      expect(out.metrics.strata.map((x) => x.name)).toEqual(['direct/cross']);
    }
    expect(got).toEqual({ 'recent-1': 0, 'bm25-msg': 1, 'bm25-diff': 0 });
  });

  it('reads strata from labels', () => {
    expect(records.map(stratumOf)).toEqual(['direct/local', 'staged/cross', 'unlabelled']);
  });

  it('scores cases, strata and paired states apart', () => {
    const lines = [
      line(1, { case_id: 'o_a__1__00000001', activated_workflows: [CI] }),
      line(2, { case_id: 'o_a__1__00000001__paired', activated_workflows: [CI] }),
      line(3, { case_id: 'o_a__2__00000002', activated_workflows: [LINT] }),
      line(4, { case_id: 'o_a__2__00000002__paired', activated_workflows: [] }),
    ];
    const s = protocolScore(records, lines, [pair('o_a__1__00000001', []), pair('o_a__2__00000002', [])], { ...DEFAULT_BOOTSTRAP, resamples: 100 });
    expect(s.report.total).toBe(3);
    expect(s.report.correct).toBe(2);
    expect(s.metrics.strata.map((x) => [x.name, x.correct, x.total])).toEqual([['direct/local', 1, 1], ['staged/cross', 1, 1], ['unlabelled', 0, 1]]);
    // Case 1: right at the base, same answer at the paired state (whose gold is empty): invariance error.
    // Case 2: right in both states.
    expect(s.pairs).toEqual({ pairs: 2, pair_exact: 1, pair_exact_rate: 0.5, invariance_errors: 1, invariance_error_rate: 0.5 });
  });

  it('scores a recorded baseline through the CLI, and refuses a manifest without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'r2v-score-'));
    writeFileSync(join(dir, 'forward.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const r = await runCliCaptured(['score', '--manifest', 'forward.jsonl', '--baseline', 'repo-prior', '--json', '--resamples', '200'], dir);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { correct: number; total: number; metrics: { repo_macro: number; accuracy_ci: { low: number; high: number } } };
    expect([out.correct, out.total]).toEqual([2, 3]);
    // o/a: 1/2, o/b: 1/1
    expect(out.metrics.repo_macro).toBe(0.75);
    const again = await runCliCaptured(['score', '--manifest', 'forward.jsonl', '--baseline', 'repo-prior', '--json', '--resamples', '200'], dir);
    expect(again.stdout).toBe(r.stdout);
    const text = await runCliCaptured(['score', '--manifest', 'forward.jsonl', '--baseline', 'repo-prior'], dir);
    expect(text.stderr).toMatch(/repository-macro\s+75.0%/);
    const none = await runCliCaptured(['score', '--manifest', 'forward.jsonl', '--baseline', 'recent-1'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/records no recent-1 baseline/);
    const neither = await runCliCaptured(['score', '--manifest', 'forward.jsonl'], dir);
    expect(neither.code).toBe(2);
  });
});
