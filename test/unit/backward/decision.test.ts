import { describe, expect, it } from 'vitest';
import { decideWithoutRepository, finalDecision, type Gathered } from '../../../src/backward/decision.js';
import type { Attribution, Reason, TextScreen } from '../../../src/model/backward.js';
import type { StageReason } from '../../../src/store/tables/backward.js';
import { aThread, anAttribution } from '../sanitize/threads.js';

const r = (stage: string, code: string): StageReason => ({ stage, code, evidence: `${code} evidence`, post: null });
const base: Gathered = {
  textDecision: 'candidate',
  caseStatus: 'resolved',
  caseDecision: 'candidate',
  caseId: 'acme_widget__1__0123abcd',
  reasons: { attribute: [], resolve: [], validate: [], sanitize: [] },
  validated: true,
  sanitized: true,
};

describe('final Backward decision', () => {
  it('is a candidate when every stage passed', () => {
    expect(finalDecision(base)).toEqual({ decision: 'candidate', caseId: base.caseId, reasons: [] });
  });
  it('rejects on text-level reasons without waiting for later stages', () => {
    const g = { ...base, textDecision: 'reject' as const, caseStatus: null, validated: false, sanitized: false, reasons: { ...base.reasons, attribute: [r('attribute', 'hedged')] } };
    expect(finalDecision(g)).toEqual({ decision: 'reject', caseId: null, reasons: [r('attribute', 'hedged')] });
  });
  it('rejects with the resolve reasons when resolution failed', () => {
    const g = { ...base, caseStatus: 'rejected' as const, caseId: null, reasons: { ...base.reasons, resolve: [r('resolve', 'ambiguous-sha')] } };
    expect(finalDecision(g)).toEqual({ decision: 'reject', caseId: null, reasons: [r('resolve', 'ambiguous-sha')] });
  });
  it('keeps a review case in review, and rejects it when a check or the audit fails', () => {
    const review = { ...base, caseDecision: 'review' as const, reasons: { ...base.reasons, resolve: [r('resolve', 'symptom-mismatch')] } };
    expect(finalDecision(review)).toEqual({ decision: 'review', caseId: base.caseId, reasons: [r('resolve', 'symptom-mismatch')] });
    const leaked = { ...review, reasons: { ...review.reasons, sanitize: [r('sanitize', 'leak')] } };
    expect(finalDecision(leaked)!.decision).toBe('reject');
    expect(finalDecision(leaked)!.reasons.map((x) => x.code)).toEqual(['symptom-mismatch', 'leak']);
    const failed = { ...base, reasons: { ...base.reasons, validate: [r('validate', 'structural-check-failed')] } };
    expect(finalDecision(failed)).toEqual({ decision: 'reject', caseId: base.caseId, reasons: [r('validate', 'structural-check-failed')] });
  });
  it('waits while validate or sanitize has not run', () => {
    expect(finalDecision({ ...base, validated: false })).toBeNull();
    expect(finalDecision({ ...base, sanitized: false })).toBeNull();
    expect(finalDecision({ ...base, caseStatus: null })).toBeNull();
  });
});

describe('the decision without a repository', () => {
  const thread = aThread('Crash on save', ['Saving crashes since 2.1.', 'Bisected to #41.', 'Bisected to 3f9a2c1.']);
  const pr = anAttribution(thread, 1, 'Bisected to #41.', '#41');
  const prRef: Attribution = { ...pr, ref: { type: 'pr', text: '#41', value: '41', urlRepo: null } };
  const sha = anAttribution(thread, 2, 'Bisected to 3f9a2c1.', '3f9a2c1');
  const text = (culprits: number[], decision: TextScreen['decision'] = 'candidate'): TextScreen => ({ decision, culprits, reasons: [] });
  const leak: Reason = { code: 'leak', evidence: 'gold-prefix: 3f9a2c1' };

  it('sends a candidate whose culprits are all pull requests to review', () => {
    expect(decideWithoutRepository([prRef, sha], text([0]), [])).toEqual({
      decision: 'review',
      reasons: [{ code: 'unresolved', evidence: 'only pull requests are named; resolving them needs the repository' }],
    });
  });

  it('keeps the text decision when a commit is named, and rejects on a sanitization finding', () => {
    expect(decideWithoutRepository([prRef, sha], text([0, 1]), [])).toEqual({ decision: 'candidate', reasons: [] });
    expect(decideWithoutRepository([prRef, sha], text([1], 'review'), [])).toEqual({ decision: 'review', reasons: [] });
    expect(decideWithoutRepository([prRef, sha], text([0]), [leak]).decision).toBe('reject');
    expect(decideWithoutRepository([prRef, sha], text([0]), [leak]).reasons.map((r) => r.code)).toEqual(['unresolved', 'leak']);
  });
});
