import { describe, expect, it } from 'vitest';
import { backwardReviewDigest, forwardReviewDigest, reviewDigest } from '../../../src/review/digest.js';
import { backwardCaseKey, caseKeyOf, forwardCaseKey, parseCaseKey } from '../../../src/review/keys.js';
import { checkAnswer, screenerReason } from '../../../src/review/screener.js';
import { entryOfLine } from '../../../src/review/import.js';
import type { CaseIndex, CaseLookup, ReviewCase } from '../../../src/review/cases.js';

const GOLD = '0123456789abcdef0123456789abcdef01234567';
const B = { report: 'render crashes on nested groups\n\nTypeError in flatten.js', gold: GOLD, quotes: ['Bisected it to 012345678.'] };
const F = { issueText: 'Margin is wrong', base: GOLD, changedPaths: ['b.css', 'a.css'], gold: ['.github/workflows/lint.yml'] };

describe('case keys', () => {
  it.each([
    ['acme/widget#12', { task: 'backward', repo: 'acme/widget', number: 12 }],
    ['acme/widgets#5<-105', { task: 'forward', repo: 'acme/widgets', issue: 5, pull: 105 }],
    ['my.org/repo-name#1', { task: 'backward', repo: 'my.org/repo-name', number: 1 }],
  ])('parses %s and formats it back', (key, ref) => {
    expect(parseCaseKey(key)).toEqual(ref);
    expect(caseKeyOf(parseCaseKey(key)!)).toBe(key);
  });
  it.each(['acme#1', 'acme/widget', 'acme/widget#0', 'acme/widget#x', 'acme/widget#5<-', 'acme/widget#5->7', 'acme_widget__1__0123abcd', ' acme/widget#1'])(
    'rejects %s',
    (key) => expect(parseCaseKey(key)).toBeNull(),
  );
  it('uses the forward stages pair key', () => {
    expect(forwardCaseKey('acme/widgets', 5, 105)).toBe('acme/widgets#5<-105');
    expect(backwardCaseKey('acme/widget', 3)).toBe('acme/widget#3');
  });
});

describe('review digests', () => {
  it('change with every defining input of a Backward case', () => {
    const d = backwardReviewDigest(B);
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(backwardReviewDigest({ ...B, report: `${B.report} ` })).not.toBe(d);
    expect(backwardReviewDigest({ ...B, gold: GOLD.replace('0', '1') })).not.toBe(d);
    expect(backwardReviewDigest({ ...B, quotes: ['Bisected it to 112345678.'] })).not.toBe(d);
    expect(backwardReviewDigest({ ...B, gold: GOLD.toUpperCase() })).toBe(d);
  });
  it('change with every defining input of a Forward case, not with path order', () => {
    const d = forwardReviewDigest(F);
    expect(forwardReviewDigest({ ...F, changedPaths: ['a.css', 'b.css'] })).toBe(d);
    expect(forwardReviewDigest({ ...F, issueText: 'Margin is wrong!' })).not.toBe(d);
    expect(forwardReviewDigest({ ...F, base: GOLD.replace('1', '2') })).not.toBe(d);
    expect(forwardReviewDigest({ ...F, changedPaths: ['a.css'] })).not.toBe(d);
    expect(forwardReviewDigest({ ...F, gold: [] })).not.toBe(d);
  });
  it('dispatch by task and never collide across tasks', () => {
    expect(reviewDigest({ task: 'backward', ...B })).toBe(backwardReviewDigest(B));
    expect(reviewDigest({ task: 'forward', ...F })).toBe(forwardReviewDigest(F));
    expect(backwardReviewDigest(B)).not.toBe(forwardReviewDigest(F));
  });
});

describe('screener answers', () => {
  const sources = ['render crashes on nested groups', 'Rendering fails with TypeError.\nI bisected it to 012345678.'];
  const answer = (o: Record<string, unknown>): string => JSON.stringify({ decision: 'accept', reasons: ['clear'], quotes: ['I bisected it to 012345678.'], ...o });

  it('keeps an answer whose quotes are exact substrings of the text', () => {
    expect(checkAnswer(answer({}), sources)).toEqual({ kind: 'supported', answer: { decision: 'accept', reasons: ['clear'], quotes: ['I bisected it to 012345678.'] } });
  });
  it('discards a fabricated quote as unsupported, naming it', () => {
    const r = checkAnswer(answer({ quotes: ['I bisected it to 012345678.', 'the maintainer confirmed it'] }), sources);
    expect(r.kind).toBe('unsupported');
    expect(r.kind === 'unsupported' && r.detail).toBe('quotes not found in the text: "the maintainer confirmed it"');
  });
  it('does not join texts to match a quote across them, nor accept paraphrase', () => {
    expect(checkAnswer(answer({ quotes: ['nested groups Rendering'] }), sources).kind).toBe('unsupported');
    expect(checkAnswer(answer({ quotes: ['i bisected it to 012345678.'] }), sources).kind).toBe('unsupported');
  });
  it('needs a quote for accept or reject, not for uncertain', () => {
    expect(checkAnswer(answer({ quotes: [] }), sources)).toMatchObject({ kind: 'unsupported', detail: 'decision accept quotes nothing from the text' });
    expect(checkAnswer(answer({ decision: 'uncertain', quotes: [] }), sources).kind).toBe('supported');
  });
  it.each([
    ['not JSON', 'sure, accept it', /^answer is not JSON/],
    ['an unknown decision', answer({ decision: 'maybe' }), /^answer decision: /],
    ['missing quotes', JSON.stringify({ decision: 'accept', reasons: [] }), /^answer quotes: /],
    ['a non-string reason', answer({ reasons: [1] }), /^answer reasons\.0: /],
  ])('calls %s invalid', (_what, stdout, detail) => {
    const r = checkAnswer(stdout, sources);
    expect(r.kind).toBe('invalid');
    expect(r.kind === 'invalid' && r.detail).toMatch(detail);
  });
  it('records reasons and quotes as canonical JSON', () => {
    expect(screenerReason({ decision: 'reject', reasons: ['r'], quotes: ['q'] })).toBe('{"quotes":["q"],"reasons":["r"]}');
  });
});

describe('import lines', () => {
  const digest = 'c'.repeat(64);
  const reviewable: ReviewCase = {
    caseKey: 'acme/widget#2', caseId: 'acme_widget__2__0123abcd', task: 'backward', repo: 'acme/widget', inputDigest: digest,
    screenDecision: 'review', view: {}, thread: null, quoteSources: [],
  };
  const ok: CaseLookup = { kind: 'reviewable', case: reviewable };
  const rejected: CaseLookup = { kind: 'rejected', caseKey: 'acme/widget#3', caseId: 'acme_widget__3__0123abcd', codes: ['hedged'] };
  const index: CaseIndex = {
    byKey: new Map<string, CaseLookup>([['acme/widget#2', ok], ['acme/widget#3', rejected]]),
    byId: new Map<string, CaseLookup>([['acme_widget__2__0123abcd', ok], ['acme_widget__3__0123abcd', rejected]]),
  };
  const at = '2024-06-01T00:00:00.000Z';
  const line = (o: Record<string, unknown>): unknown => ({ case_id: 'acme_widget__2__0123abcd', reviewer: 'alice', decision: 'accept', reason: 'ok', ...o });

  it('binds a decision to the case key and current digest', () => {
    expect(entryOfLine(line({}), index, at)).toEqual({
      entry: { caseKey: 'acme/widget#2', task: 'backward', reviewer: 'alice', decision: 'accept', reason: 'ok', inputDigest: digest, recordedAt: at, source: 'human' },
    });
    expect(entryOfLine(line({ case_id: undefined, case_key: 'acme/widget#2', input_digest: digest }), index, at)).toHaveProperty('entry.caseKey', 'acme/widget#2');
  });
  it.each([
    ['no case', line({ case_id: undefined }), 'needs case_id or case_key'],
    ['an unknown case id', line({ case_id: 'acme_widget__9__00000000' }), 'case_id acme_widget__9__00000000: unknown case'],
    ['an unknown case key', line({ case_id: undefined, case_key: 'acme/widget#9' }), 'case_key acme/widget#9: unknown case'],
    ['keys naming different cases', line({ case_key: 'acme/widget#3' }), 'case_id acme_widget__2__0123abcd and case_key acme/widget#3 name different cases'],
    ['a rejected case', line({ case_id: 'acme_widget__3__0123abcd' }), 'case_id acme_widget__3__0123abcd: the rules rejected this case (hedged); a review decision cannot admit it'],
    ['a stale digest', line({ input_digest: 'd'.repeat(64) }), 'case_id acme_widget__2__0123abcd: stale decision: input_digest dddddddddddd… was reviewed, the case is now cccccccccccc… (its inputs changed; export it again)'],
    ['a bad decision', line({ decision: 'approve' }), 'decision: Invalid option: expected one of "accept"|"reject"|"uncertain"'],
    ['a screener name', line({ reviewer: 'screener:llm' }), 'reviewer: names starting with screener: are reserved for screeners'],
    ['an empty reviewer', line({ reviewer: '  ' }), 'reviewer: must not be empty'],
    ['a missing reason', line({ reason: undefined }), 'reason: Invalid input: expected string, received undefined'],
    ['a short digest', line({ input_digest: 'abc' }), 'input_digest: must be 64 lowercase hex (the input_digest of the export)'],
  ])('reports %s', (_what, value, error) => {
    expect(entryOfLine(value, index, at)).toEqual({ error });
  });
});
