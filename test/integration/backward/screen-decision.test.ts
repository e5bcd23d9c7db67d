import { describe, expect, it } from 'vitest';
import { decide, type Gathered } from '../../../src/backward/decision.js';
import type { StageReason } from '../../../src/store/tables/backward.js';

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
    expect(decide(base)).toEqual({ decision: 'candidate', caseId: base.caseId, reasons: [] });
  });
  it('rejects on text-level reasons without waiting for later stages', () => {
    const g = { ...base, textDecision: 'reject' as const, caseStatus: null, validated: false, sanitized: false, reasons: { ...base.reasons, attribute: [r('attribute', 'hedged')] } };
    expect(decide(g)).toEqual({ decision: 'reject', caseId: null, reasons: [r('attribute', 'hedged')] });
  });
  it('rejects with the resolve reasons when resolution failed', () => {
    const g = { ...base, caseStatus: 'rejected' as const, caseId: null, reasons: { ...base.reasons, resolve: [r('resolve', 'ambiguous-sha')] } };
    expect(decide(g)).toEqual({ decision: 'reject', caseId: null, reasons: [r('resolve', 'ambiguous-sha')] });
  });
  it('keeps a review case in review, and rejects it when a check or the audit fails', () => {
    const review = { ...base, caseDecision: 'review' as const, reasons: { ...base.reasons, resolve: [r('resolve', 'symptom-mismatch')] } };
    expect(decide(review)).toEqual({ decision: 'review', caseId: base.caseId, reasons: [r('resolve', 'symptom-mismatch')] });
    const leaked = { ...review, reasons: { ...review.reasons, sanitize: [r('sanitize', 'leak')] } };
    expect(decide(leaked)!.decision).toBe('reject');
    expect(decide(leaked)!.reasons.map((x) => x.code)).toEqual(['symptom-mismatch', 'leak']);
    const failed = { ...base, reasons: { ...base.reasons, validate: [r('validate', 'structural-check-failed')] } };
    expect(decide(failed)).toEqual({ decision: 'reject', caseId: base.caseId, reasons: [r('validate', 'structural-check-failed')] });
  });
  it('waits while validate or sanitize has not run', () => {
    expect(decide({ ...base, validated: false })).toBeNull();
    expect(decide({ ...base, sanitized: false })).toBeNull();
    expect(decide({ ...base, caseStatus: null })).toBeNull();
  });
});
