import { describe, expect, it } from 'vitest';
import { decideGold, goodVersionText, rejectedRecord, resolvedRecord, type GoldFacts } from '../../../src/backward/resolve.js';
import type { Attribution, TextScreen } from '../../../src/model/backward.js';
import type { ResolutionRow } from '../../../src/store/tables/backward.js';
import { caseId } from '../../../src/util/case-id.js';
import { aThread, anAttribution } from '../sanitize/threads.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const thread = aThread('Crash on save', ['Saving a file crashes since 2.1.', 'Bisected to 3f9a2c1.', 'Confirmed: 3f9a2c1 is the first bad commit.', 'It came with #41.']);
const first = anAttribution(thread, 1, 'Bisected to 3f9a2c1.', '3f9a2c1');
const second = anAttribution(thread, 2, 'Confirmed: 3f9a2c1 is the first bad commit.', '3f9a2c1');
const pr: Attribution = { ...anAttribution(thread, 3, 'It came with #41.', '#41'), ref: { type: 'pr', text: '#41', value: '41', urlRepo: null } };
const text = (culprits: number[]): TextScreen => ({ decision: 'candidate', culprits, reasons: [] });
const row = (idx: number, status: string, sha: string | null, candidates: string[] = []): ResolutionRow => ({ idx, input: `ref ${idx}`, status, sha, candidates, via: 'sha' });

describe('decideGold on resolved references', () => {
  it('takes the one SHA every culprit resolves to', () => {
    const got = decideGold(thread, [first, second], text([0, 1]), [row(0, 'ok', A), row(1, 'ok', A)]);
    expect(got.gold).toBe(A);
    expect(got.screen.decision).toBe('candidate');
  });

  it('rejects culprits that resolve to different commits (competing), never picking one', () => {
    const got = decideGold(thread, [first, second], text([0, 1]), [row(0, 'ok', A), row(1, 'ok', B)]);
    expect(got.gold).toBeNull();
    expect(got.screen.decision).toBe('reject');
    expect(got.screen.reasons.map((r) => r.code)).toContain('competing');
  });

  it('rejects an ambiguous abbreviation with its candidates as evidence', () => {
    const got = decideGold(thread, [first], text([0]), [row(0, 'ambiguous', null, [A, B])]);
    expect(got.gold).toBeNull();
    expect(got.screen.reasons.find((r) => r.code === 'ambiguous-sha')?.evidence).toBe(`3f9a2c1: ambiguous: ${A}, ${B}`);
  });

  it('leaves out a pull request it cannot look up beside a commit culprit that resolved', () => {
    const got = decideGold(thread, [first, pr], text([0, 1]), [row(0, 'ok', A), row(1, 'pr-unknown', null)]);
    expect(got).toMatchObject({ gold: A, screen: { decision: 'candidate' } });
  });
});

describe('the case record', () => {
  const facts: GoldFacts = {
    gold: A,
    commit: { subject: 'Rework saving', parents: [B] },
    defaultBranch: 'main',
    cutoff: { sha: 'c'.repeat(40), rule: 'foxtrot-corrected', notes: ['followed'] },
    historyWindow: 12,
    tag: 'v2.0.0',
    tagWindow: 30,
    carryingPulls: [57, 41],
  };

  it('records gold, parent, cutoff with its rule, windows, the case id and every pull request naming the culprit', () => {
    const record = resolvedRecord(thread, [first, pr], text([0, 1]), [90, 12, 90], facts);
    expect(record).toEqual({
      repo: 'acme/widget',
      number: 42,
      status: 'resolved',
      decision: 'candidate',
      caseId: caseId('acme/widget', 42, { repo: 'acme/widget', number: 42, gold: A }),
      gold: A,
      goldSubject: 'Rework saving',
      parent: B,
      defaultBranch: 'main',
      cutoff: 'c'.repeat(40),
      cutoffRule: 'foxtrot-corrected',
      cutoffNotes: ['followed'],
      historyWindow: 12,
      tag: 'v2.0.0',
      tagWindow: 30,
      prNumbers: [12, 41, 57, 90],
      reportTime: thread.createdAt,
      reportUrl: thread.url,
    });
    expect(resolvedRecord(thread, [first], text([0]), [], { ...facts, commit: null, carryingPulls: [] })).toMatchObject({ goldSubject: null, parent: null, prNumbers: [] });
  });

  it('a thread without one gold is rejected and keeps only the fix pull requests', () => {
    expect(rejectedRecord(thread, [9, 3, 9])).toMatchObject({ status: 'rejected', decision: 'reject', caseId: null, gold: null, cutoffRule: 'none', prNumbers: [3, 9] });
  });
});

describe('goodVersionText', () => {
  it('finds the phrase naming the last good version, or nothing', () => {
    expect(goodVersionText('Broken since the upgrade; it works in 1.4.2 and earlier.')).toBe('works in 1.4.2');
    expect(goodVersionText('Broken since the upgrade.')).toBeNull();
  });
});
