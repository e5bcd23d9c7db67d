import { describe, expect, it } from 'vitest';
import {
  applicableBlockers,
  backwardBlockers,
  backwardCaseId,
  forwardBlockers,
  NO_LEDGER,
  reviewState,
  tierOf,
  type BackwardInputs,
  type ForwardInputs,
} from '../../../src/export/records.js';
import { CHECK_NAMES } from '../../../src/backward/validate.js';
import type { ForwardCase } from '../../../src/store/tables/forward.js';

const GOLD = 'b'.repeat(40);
const clean: BackwardInputs = {
  repo: 'acme/widget',
  number: 1,
  issueUrl: 'https://github.com/acme/widget/issues/1',
  text: { decision: 'candidate', reasons: [], culprits: [] },
  attributions: [],
  postUrls: ['https://github.com/acme/widget/issues/1'],
  record: {
    repo: 'acme/widget', number: 1, status: 'resolved', decision: 'candidate', caseId: 'acme_widget__1__12345678', gold: GOLD,
    goldSubject: 'x', parent: 'a'.repeat(40), defaultBranch: 'main', cutoff: 'c'.repeat(40), cutoffRule: 'first-parent-by-date',
    cutoffNotes: [], historyWindow: 2, tag: null, tagWindow: null, prNumbers: [], reportTime: '2024-01-01T10:00:00Z', reportUrl: 'u',
  },
  checks: CHECK_NAMES.map((name) => ({ name, pass: true, evidence: 'ok' })),
  report: { original: 'o', text: 't', deletions: [], leakOk: true, leakFindings: [], symptomOk: true, symptomWhy: '' },
  screen: { repo: 'acme/widget', number: 1, caseId: 'acme_widget__1__12345678', decision: 'candidate', reasons: [] },
  probe: { boundary: 'verified', reason: 'verified', parent: 'good', gold: 'bad', draft: false },
  review: NO_LEDGER,
};
const always = { requireReview: false };
const codes = (bs: { code: string }[]): string[] => bs.map((b) => b.code);

describe('Backward admission gates', () => {
  it('a clean case is blocked only by the review gate (no ledger), which applies only on request', () => {
    const blockers = backwardBlockers(clean);
    expect(blockers).toEqual([{ gate: 'review', stage: 'review', code: 'review-required', evidence: expect.stringContaining('no review ledger') }]);
    expect(applicableBlockers(blockers, always)).toEqual([]);
    expect(codes(applicableBlockers(blockers, { requireReview: true }))).toEqual(['review-required']);
    expect(tierOf(blockers, always)).toBe('admitted');
    expect(tierOf(blockers, { requireReview: true })).toBe('candidate');
    expect(backwardBlockers({ ...clean, review: reviewState('accepted') })).toEqual([]);
  });

  it.each([
    ['a failing check', { checks: clean.checks.map((c) => (c.name === 'temporal' ? { ...c, pass: false, evidence: 'after report' } : c)) }, ['structural-check-failed']],
    ['a missing check', { checks: clean.checks.slice(1) }, ['check-missing']],
    ['a leak', { report: { ...clean.report!, leakOk: false, leakFindings: [{ code: 'gold-prefix', text: 'bbbbbbb' }] } }, ['leak']],
    ['no symptom left', { report: { ...clean.report!, symptomOk: false, symptomWhy: 'too short' } }, ['insufficient-symptom']],
    ['no report', { report: null }, ['not-sanitized']],
    ['no screen decision', { screen: null }, ['not-screened']],
    ['a stale screen', { screen: { ...clean.screen!, caseId: 'acme_widget__1__00000000' } }, ['stale-screen']],
    ['an unresolved thread', { record: { ...clean.record!, status: 'rejected' as const, gold: null } }, ['unresolved']],
  ])('%s blocks always', (_label, patch, expected) => {
    const all = backwardBlockers({ ...clean, ...patch } as BackwardInputs);
    const blockers = applicableBlockers(all, always);
    expect(codes(blockers)).toEqual(expected);
    expect(tierOf(all, always)).toBe('rejected');
    expect(blockers.every((b) => b.evidence.length > 0)).toBe(true);
  });

  it.each([
    ['not applicable', { boundary: null, reason: 'not-applicable', status: 'not-applicable' as const, kind: 'transplanted' as const, detail: 'the fix modifies t.test.js, but it does not exist at parent 0123', parent: null, gold: null, draft: false }, 'probe-not-applicable', /does not exist at parent 0123/],
    ['flaky transplanted tests', { boundary: 'flaky' as const, reason: 'flaky-parent', kind: 'transplanted' as const, detail: 'parent flaky (runs disagree)', parent: 'flaky' as const, gold: 'bad' as const, draft: false }, 'probe-flaky', /\(transplanted tests\): flaky-parent; parent flaky/],
    ['transplanted tests failing at the parent too', { boundary: 'not-a-boundary' as const, reason: 'bad-at-both', kind: 'transplanted' as const, detail: 'parent bad (the tests failed)', parent: 'bad' as const, gold: 'bad' as const, draft: false }, 'probe-not-a-boundary', /transplanted tests .*bad-at-both; parent bad/],
    ['an ambiguous fix', { boundary: null, reason: 'fix-ambiguous', status: 'no-spec' as const, detail: 'several merged pull requests close #1 after the report: #4, #5', parent: null, gold: null, draft: false }, 'probe-missing', /fix-ambiguous\); several merged pull requests/],
  ])('a derived probe that is %s keeps the case a candidate, its reason in the evidence', (_label, probe, code, evidence) => {
    const blockers = backwardBlockers({ ...clean, probe, review: reviewState('accepted') });
    expect(blockers).toEqual([{ gate: 'candidate', stage: 'probe', code, evidence: expect.stringMatching(evidence) }]);
    expect(tierOf(blockers, always)).toBe('candidate');
  });

  it('a rejected screen carries the upstream stage, code and evidence', () => {
    const screen = { ...clean.screen!, decision: 'reject' as const, reasons: [{ stage: 'attribute', code: 'hedged', evidence: 'I suspect', post: 1 }] };
    expect(applicableBlockers(backwardBlockers({ ...clean, screen }), always)).toEqual([{ gate: 'always', stage: 'attribute', code: 'hedged', evidence: 'I suspect' }]);
  });

  it.each([
    ['no verdict', null, 'probe-missing'],
    ['a flaky boundary', { boundary: 'flaky' as const, reason: 'flaky-gold', parent: 'good' as const, gold: 'flaky' as const, draft: false }, 'probe-flaky'],
    ['a nonreproducible boundary', { boundary: 'nonreproducible' as const, reason: 'gold-build', parent: 'good' as const, gold: 'nonreproducible' as const, draft: false }, 'probe-nonreproducible'],
    ['a draft spec', { boundary: 'nonreproducible' as const, reason: 'draft', parent: 'good' as const, gold: 'bad' as const, draft: true }, 'probe-draft'],
  ])('%s keeps an otherwise clean case a candidate', (_label, probe, code) => {
    const blockers = backwardBlockers({ ...clean, probe, review: reviewState('accepted') });
    expect(blockers).toEqual([expect.objectContaining({ gate: 'candidate', stage: 'probe', code })]);
    expect(tierOf(blockers, always)).toBe('candidate');
    expect(tierOf(blockers, { requireReview: true })).toBe('candidate');
  });

  it('a verified boundary admits; a replay contradicting the gold rejects', () => {
    expect(tierOf(backwardBlockers({ ...clean, review: reviewState('accepted') }), always)).toBe('admitted');
    const contradicted = backwardBlockers({ ...clean, probe: { boundary: 'not-a-boundary', reason: 'both-bad', parent: 'bad', gold: 'bad', draft: false } });
    expect(codes(applicableBlockers(contradicted, always))).toEqual(['probe-not-a-boundary']);
    expect(tierOf(contradicted, always)).toBe('rejected');
  });

  it('a probe that ran with network access is recorded, and keeps the case a candidate only under --require-isolation', () => {
    const open = backwardBlockers({ ...clean, probe: { ...clean.probe!, networkIsolated: false }, review: reviewState('accepted') });
    expect(open).toEqual([expect.objectContaining({ gate: 'isolation', stage: 'probe', code: 'probe-not-isolated' })]);
    expect(tierOf(open, { requireReview: false })).toBe('admitted');
    expect(tierOf(open, { requireReview: false, requireIsolation: true })).toBe('candidate');
    const closed = backwardBlockers({ ...clean, probe: { ...clean.probe!, networkIsolated: true }, review: reviewState('accepted') });
    expect(tierOf(closed, { requireReview: false, requireIsolation: true })).toBe('admitted');
  });

  it('a screen decision of review without a human accept keeps the case a candidate', () => {
    const blockers = backwardBlockers({ ...clean, screen: { ...clean.screen!, decision: 'review' } });
    expect(codes(applicableBlockers(blockers, always))).toEqual(['review-pending']);
    expect(tierOf(blockers, always)).toBe('candidate');
  });

  it('an unresolved thread gets a stable case id from its repository and number', () => {
    const a = backwardCaseId({ repo: 'acme/widget', number: 7, record: null });
    expect(a).toMatch(/^acme_widget__7__[0-9a-f]{8}$/);
    expect(backwardCaseId({ repo: 'acme/widget', number: 7, record: null })).toBe(a);
    expect(backwardCaseId({ repo: 'acme/widget', number: 8, record: null })).not.toBe(a);
  });
});

const fcase: ForwardCase = {
  case_id: 'acme_widget__40__abcdef12', repo: 'acme/widget', issue: 40, pull: 50, stage: 'forward-screen', issue_text: 'text', deletions: [],
  base: 'c'.repeat(40), base_rule: 'pr-base-sha', head: 'd'.repeat(40), context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' },
  changed_paths: ['src/a.js'], gold: ['.github/workflows/ci.yml'], invalid: [], evaluator: 'routing/1', limit_applied: false, stability: null,
  prior: null, labels: null, flags: [], decision: 'candidate', reasons: [], source: { issue_url: null, pr_url: null, link_kinds: ['timeline'] },
};
const finput = (patch: Partial<ForwardCase>): ForwardInputs => ({ case: { ...fcase, ...patch }, goldDigests: null, review: NO_LEDGER });

describe('Forward admission gates', () => {
  it.each([
    ['a candidate', {}, []],
    ['an open flag', { decision: 'review' as const, flags: [{ code: 'scope-ambiguous', evidence: '3 of 4' }] }, ['scope-ambiguous']],
    ['a pair still pending', { decision: 'pending' as const, stage: 'route' as const }, ['incomplete']],
    ['a rejection', { decision: 'reject' as const, reasons: [{ stage: 'link', code: 'not-merged', evidence: 'open' }] }, ['not-merged']],
    ['no gold', { gold: null }, ['gold-missing']],
  ])('%s', (_label, patch, expected) => {
    expect(codes(applicableBlockers(forwardBlockers(finput(patch)), always))).toEqual(expected);
  });

  it('an open flag makes a candidate, a pending pair a rejection, a clean pair an admitted case', () => {
    expect(tierOf(forwardBlockers(finput({ decision: 'review', flags: [{ code: 'scope-ambiguous', evidence: '3 of 4' }] })), always)).toBe('candidate');
    expect(tierOf(forwardBlockers(finput({ decision: 'pending', stage: 'route' })), always)).toBe('rejected');
    expect(tierOf(forwardBlockers(finput({})), always)).toBe('admitted');
  });

  it('a human reject blocks whatever the selection', () => {
    const blockers = forwardBlockers({ ...finput({}), review: reviewState('rejected') });
    expect(applicableBlockers(blockers, always)).toEqual([{ gate: 'always', stage: 'review', code: 'review-rejected', evidence: 'a human reviewer rejected this case' }]);
  });

  it('a human accept clears an open flag', () => {
    const input = { ...finput({ decision: 'review', flags: [{ code: 'multi-link', evidence: '#5' }] }), review: reviewState('accepted') };
    expect(forwardBlockers(input)).toEqual([]);
  });
});
