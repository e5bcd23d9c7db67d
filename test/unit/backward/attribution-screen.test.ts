import { describe, expect, it } from 'vitest';
import { extractAttributions } from '../../../src/backward/attribute.js';
import { hasObservableSymptom, screenResolved, screenThread, type ResolvedRef } from '../../../src/backward/attribution-screen.js';
import type { Thread } from '../../../src/model/backward.js';
import { ValidationError } from '../../../src/errors.js';
import { aThread } from './build.js';

const SYMPTOM = 'Rendering a widget with `size: 0` shows a blank page in 2.4.0 instead of the placeholder; 2.3.9 shows it.';
const SHA_A = '3e9a1f2c0d1b2a3948576a5b4c3d2e1f00112233';
const SHA_B = '4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e';

function screen(bodies: readonly string[], options: Parameters<typeof aThread>[1] = {}) {
  const thread = aThread(bodies, options);
  const attributions = extractAttributions(thread);
  return { thread, attributions, result: screenThread(thread, attributions) };
}
const codes = (r: { reasons: { code: string }[] }): string[] => [...new Set(r.reasons.map((x) => x.code))];

describe('screenThread: candidates', () => {
  it.each([
    ['a plain bisect statement', [SYMPTOM, 'I bisected this to 3e9a1f2.']],
    ['the same commit named twice, abbreviated and in full', [SYMPTOM, 'Bisected to 3e9a1f2.', `Confirmed: the first bad commit is ${SHA_A}.`]],
    ['a guess confirmed later by a bisect', [SYMPTOM, 'Maybe #4411 caused it?', 'Bisected: the regression was introduced by #4411.']],
    ['reverting the culprit fixes it', [SYMPTOM, 'Bisected to 3e9a1f2. Reverting 3e9a1f2 fixes it.']],
    ['a different commit is the fix', [SYMPTOM, 'Bisected to 3e9a1f2.', 'Fixed by 5d6e7f8a in main.']],
    ['a range stated next to a finished bisect', [`${SYMPTOM} Between 2.3.9 and 2.4.0 I bisected it to 3e9a1f2.`]],
    ['a SHA and a PR (compared only once resolved)', [SYMPTOM, 'I bisected this to 3e9a1f2.', 'Right, the regression was introduced by #4411.']],
  ])('%s', (_name, bodies) => {
    const { result, attributions } = screen(bodies);
    expect(result.reasons).toEqual([]);
    expect(result.decision).toBe('candidate');
    expect(result.culprits).toEqual(attributions.map((_, i) => i));
  });
});

describe('screenThread: one rule each', () => {
  it.each([
    ['no-attribution', [SYMPTOM, 'Same here on 2.4.1, I am on commit 3e9a1f2.'], 'no first-bad attribution in the issue body or its comments'],
    ['range-only', [SYMPTOM, 'It broke somewhere between v2.3.9 and v2.4.0.'], 'It broke somewhere between v2.3.9 and v2.4.0.'],
    ['range-only', [SYMPTOM, 'git log 3e9a1f2..4b5c6d7e shows 12 commits'], 'git log 3e9a1f2..4b5c6d7e shows 12 commits'],
    ['range-only', [`${SYMPTOM}\n\n- 2.3.9: good\n- 2.4.0: bad`], '2.3.9: good'],
    ['range-only', [SYMPTOM, 'Last known good is the 0412 nightly.'], 'Last known good is the 0412 nightly.'],
    ['hedged', [SYMPTOM, 'I suspect the culprit is 3e9a1f2.'], 'I suspect the culprit is 3e9a1f2.'],
    ['bisect-skipped', [SYMPTOM, "There are only 'skip'ped commits left to test.\nThe first bad commit could be any of:\n3e9a1f2\n4b5c6d7e"], "There are only 'skip'ped commits left to test."],
    ['retracted', [SYMPTOM, 'Bisected to 3e9a1f2.', 'Sorry, the bisect was wrong: my test was flaky.'], 'Sorry, the bisect was wrong: my test was flaky.'],
    ['retracted', [SYMPTOM, 'Bisected to 3e9a1f2. Scratch that, I tested the wrong binary.'], 'Scratch that, I tested the wrong binary.'],
    ['retracted', [SYMPTOM, 'Bisected to 3e9a1f2.', 'False alarm, it reproduces on 2.3.9 too.'], 'False alarm, it reproduces on 2.3.9 too.'],
    ['retracted', [SYMPTOM, 'Bisected to 3e9a1f2.', 'My mistake, I mixed up the builds.'], 'My mistake, I mixed up the builds.'],
    ['fix-not-culprit', [SYMPTOM, 'Bisected to 3e9a1f2.', 'But 3e9a1f2 fixed the issue in 2.3, so you had good and bad swapped.'], 'But 3e9a1f2 fixed the issue in 2.3, so you had good and bad swapped.'],
    ['fix-not-culprit', [SYMPTOM, 'Bisect points to #4411.', 'This was fixed by #4411 last year.'], 'This was fixed by #4411 last year.'],
    ['fix-not-culprit', [SYMPTOM, 'I bisected to 3e9a1f2, the commit that fixed it in 2.2.'], 'I bisected to 3e9a1f2, the commit that fixed it in 2.2.'],
    ['cross-repository', [SYMPTOM, `Caused by https://github.com/dep/engine/commit/${SHA_A}.`], `https://github.com/dep/engine/commit/${SHA_A}`],
    ['cross-repository', [SYMPTOM, 'The regression was introduced by dep/engine#77.'], 'dep/engine#77'],
    ['symptom-mismatch', [SYMPTOM, 'Bisected to 3e9a1f2.', 'That bisect is about a different bug: the layout crash, not the blank page.'], 'That bisect is about a different bug: the layout crash, not the blank page.'],
  ])('%s: %j', (code, bodies, evidence) => {
    const { result } = screen(bodies);
    expect(result.decision).toBe('reject');
    expect(codes(result)).toEqual([code]);
    expect(result.reasons.map((r) => r.evidence)).toContain(evidence);
    expect(result.culprits).toEqual([]);
  });

  it('competing: different people name different commits', () => {
    const { result } = screen([SYMPTOM, 'Bisected to 3e9a1f2.', 'Here bisect says 4b5c6d7e.'], { authors: ['r', 'ann', 'bob'] });
    expect(result.decision).toBe('reject');
    expect(result.reasons).toEqual([{ code: 'competing', evidence: 'different culprits named: 3e9a1f2 (post 1, ann) vs 4b5c6d7e (post 2, bob)' }]);
  });

  it('competing: one sentence naming two commits', () => {
    const { result, attributions } = screen([SYMPTOM, 'Bisected to 3e9a1f2 and 4b5c6d7e (the two halves of the cache rewrite).']);
    expect(attributions.map((a) => a.ref.text)).toEqual(['3e9a1f2', '4b5c6d7e']);
    expect(codes(result)).toEqual(['competing']);
  });

  it('competing: different PRs', () => {
    const { result } = screen([SYMPTOM, 'Regression introduced by #10.', 'No: bisect says #11.']);
    expect(codes(result)).toEqual(['competing']);
  });

  it('is not competing when the references share a prefix', () => {
    const { result } = screen([SYMPTOM, 'Bisected to 3e9a1f2.', `${SHA_A} is the culprit.`]);
    expect(result.decision).toBe('candidate');
  });

  it('never breaks a tie by frequency: three mentions of one SHA against one of another', () => {
    const { result } = screen([SYMPTOM, 'Bisected to 3e9a1f2.', 'Confirmed, 3e9a1f2 is the culprit.', 'Yes, 3e9a1f2 is the culprit.', 'My bisect says 4b5c6d7e.']);
    expect(result.decision).toBe('reject');
    expect(codes(result)).toEqual(['competing']);
  });

  it('keeps every reason found, sorted by code', () => {
    const { result } = screen([
      SYMPTOM,
      'Bisected to 5d6e7f8a.',
      'I think the regression was introduced by 3e9a1f2.',
      `Bisect points to https://github.com/dep/engine/commit/${SHA_B}.`,
      'Scratch that.',
    ]);
    expect(result.reasons.map((r) => r.code)).toEqual(['competing', 'cross-repository', 'hedged', 'retracted']);
  });

  it('a retraction before the attribution does not count', () => {
    const { result } = screen([SYMPTOM, 'My first bisect was wrong because of a stale cache. With a clean tree I bisected it to 3e9a1f2.']);
    expect(result.decision).toBe('candidate');
  });

  it('symptom mismatch is sent to review when the attribution quotes another issue', () => {
    const { result } = screen([SYMPTOM, 'Over in #77 the bisect landed on 3e9a1f2.'], { number: 100 });
    expect(result.decision).toBe('review');
    expect(result.reasons).toEqual([{ code: 'symptom-mismatch', evidence: 'Over in #77 the bisect landed on 3e9a1f2.', post: 1 }]);
    expect(result.culprits).toEqual([0]);
  });

  it('the issue itself and the attributed PR are not other issues', () => {
    expect(screen([SYMPTOM, 'For #100 I bisected to 3e9a1f2.'], { number: 100 }).result.decision).toBe('candidate');
    expect(screen([SYMPTOM, 'Bisected to #55, see #55 for the change.'], { number: 100 }).result.decision).toBe('candidate');
  });

  it('a later post that both quotes another issue and calls it a different crash is a sure mismatch', () => {
    const { result } = screen([SYMPTOM, 'Bisected to 3e9a1f2.', 'For #77 the bisect landed on 3e9a1f2 too, and that is a different crash.']);
    expect(result.decision).toBe('reject');
    expect(result.reasons).toEqual([{ code: 'symptom-mismatch', evidence: 'For #77 the bisect landed on 3e9a1f2 too, and that is a different crash.', post: 2 }]);
  });

  it('a reject rule wins over a review', () => {
    const { result } = screen([SYMPTOM, 'Over in #77 the bisect landed on 3e9a1f2.', 'False alarm.']);
    expect(result.decision).toBe('reject');
    expect(codes(result)).toEqual(['retracted', 'symptom-mismatch']);
  });
});

describe('screenResolved', () => {
  function base(bodies: readonly string[]): { thread: Thread; attributions: ReturnType<typeof extractAttributions>; text: ReturnType<typeof screenThread> } {
    const thread = aThread(bodies);
    const attributions = extractAttributions(thread);
    return { thread, attributions, text: screenThread(thread, attributions) };
  }
  const ok = (index: number, sha: string): ResolvedRef => ({ index, status: 'ok', sha, candidates: [] });

  it('keeps a candidate whose culprits resolve to one commit', () => {
    const { thread, attributions, text } = base([SYMPTOM, 'Bisected to 3e9a1f2.', 'The regression was introduced by #4411.']);
    const out = screenResolved(thread, attributions, text, [ok(0, SHA_A), ok(1, SHA_A)]);
    expect(out).toEqual({ decision: 'candidate', reasons: [], culprits: [0, 1] });
  });

  it('competing when culprits resolve to different commits, whatever their order or count', () => {
    const { thread, attributions, text } = base([SYMPTOM, 'Bisected to 3e9a1f2.', 'The regression was introduced by #4411.']);
    const out = screenResolved(thread, attributions, text, [ok(0, SHA_A), ok(1, SHA_B)]);
    expect(out.decision).toBe('reject');
    expect(out.reasons).toEqual([{ code: 'competing', evidence: `culprits resolve to different commits: 3e9a1f2 → ${SHA_A}; #4411 → ${SHA_B}` }]);
    expect(out.culprits).toEqual([]);
  });

  it.each([
    ['ambiguous', 'ambiguous-sha', [SHA_A, '3e9a1f2ffff0000000000000000000000000000a'], `3e9a1f2: ambiguous: ${SHA_A}, 3e9a1f2ffff0000000000000000000000000000a`],
    ['missing', 'missing-sha', [], '3e9a1f2: missing'],
    ['not-commit', 'not-commit', [], '3e9a1f2: not-commit'],
    ['cross-repository', 'cross-repository', [], '3e9a1f2: cross-repository'],
    ['pr-not-single-commit', 'pr-not-single-commit', [], '3e9a1f2: pr-not-single-commit'],
    ['pr-unknown', 'unresolved', [], '3e9a1f2: pr-unknown'],
  ] as const)('%s → %s', (status, code, candidates, evidence) => {
    const { thread, attributions, text } = base([SYMPTOM, 'Bisected to 3e9a1f2.']);
    const out = screenResolved(thread, attributions, text, [{ index: 0, status, sha: null, candidates: [...candidates] }]);
    expect(out.decision).toBe('reject');
    expect(out.reasons).toEqual([{ code, evidence, post: 1 }]);
  });

  it('adds to the text-level reasons and keeps them sorted', () => {
    const { thread, attributions, text } = base([SYMPTOM, 'I think it was introduced by 3e9a1f2.']);
    const out = screenResolved(thread, attributions, text, [{ index: 0, status: 'missing', sha: null, candidates: [] }]);
    expect(out.reasons.map((r) => r.code)).toEqual(['hedged', 'missing-sha']);
  });

  it('keeps a review decision when nothing new is found', () => {
    const { thread, attributions, text } = base([SYMPTOM, 'Over in #77 the bisect landed on 3e9a1f2.']);
    expect(text.decision).toBe('review');
    expect(screenResolved(thread, attributions, text, [ok(0, SHA_A)]).decision).toBe('review');
  });

  it('rejects malformed resolutions with a clear error', () => {
    const { thread, attributions, text } = base([SYMPTOM, 'Bisected to 3e9a1f2.']);
    expect(() => screenResolved(thread, attributions, text, [ok(3, SHA_A)])).toThrow(new ValidationError('acme/widget#100: resolved reference 3 names no attribution (there are 1)'));
    expect(() => screenResolved(thread, attributions, text, [ok(0, 'abc')])).toThrow(ValidationError);
  });
});

describe('hasObservableSymptom', () => {
  it.each([
    [SYMPTOM, true],
    ['Build fails with `error[E0599]: no method named foo found` on 1.79 nightly.', true],
    ['', false],
    ['broken', false],
    ['broken since 1.6', false],
    ['- 1.4.2: good\n- 1.5.0: bad\n- 1.5.1: bad', false],
    ['git bisect start\ngit bisect bad v2\ngit bisect good v1\nBisecting: 3 revisions left to test after this (roughly 2 steps)', false],
  ])('%j → %s', (text, ok) => {
    const r = hasObservableSymptom(text);
    expect(r.ok).toBe(ok);
    expect(r.why.length).toBeGreaterThan(0);
  });

  it('says why', () => {
    expect(hasObservableSymptom('').why).toBe('empty report');
    expect(hasObservableSymptom('- 1.4.2: good\n- 1.5.0: bad').why).toBe('only version lists (2 lines) and 0 words');
    expect(hasObservableSymptom('git bisect start\ngit bisect bad v2').why).toBe('only a bisect log (2 lines) and 0 words');
    expect(hasObservableSymptom('it is broken now').why).toBe('too short (4 words, need 8)');
  });
});

describe('hasObservableSymptom: short but specific', () => {
  it.each([
    ['Empty stack trace on Quartz 24.1', true],
    ['Rendering glitches in nested frames', true],
    ['it is broken again now', false],
    ['Regression since the latest update', false],
  ])('%j → %s', (text, ok) => {
    expect(hasObservableSymptom(text).ok).toBe(ok);
  });
});
