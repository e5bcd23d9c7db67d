import { describe, expect, it } from 'vitest';
import { extractAttributions } from '../../../src/backward/attribute.js';
import { aThread } from './build.js';

const FULL = '8f14e45fceea167a5a36dedd4bea2543a1b2c3d4';
const OTHER = '1679091c5a880faf6fb5e6087eb1b2dc4daa3e7f';

function one(body: string) {
  const found = extractAttributions(aThread([body]));
  return found.map((a) => ({ kind: a.kind, type: a.ref.type, text: a.ref.text, value: a.ref.value, urlRepo: a.ref.urlRepo, hedged: a.hedged }));
}

describe('extractAttributions: attribution forms', () => {
  it.each([
    ['bisected to a SHA', 'I bisected this to 3e9a1f2.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['bisected it down to', 'Bisected it down to `3e9a1f2c` after 6 steps.', { kind: 'statement', type: 'sha', text: '3e9a1f2c' }],
    ['bisected the regression to a PR', 'We bisected the regression to #4411.', { kind: 'pr-ref', type: 'pr', text: '#4411' }],
    [
      'bisected to a commit URL',
      `Bisected to https://github.com/acme/widget/commit/${FULL}.`,
      { kind: 'commit-url', type: 'commit-url', text: `https://github.com/acme/widget/commit/${FULL}` },
    ],
    ['first bad commit is', 'The first bad commit is 3e9a1f2.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['first bad commit was', 'the first bad commit was commit 3e9a1f2', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['first bad commit colon', 'First bad commit: 3e9a1f2', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['first bad commit in a code block', `The first bad commit is:\n\n\`\`\`\n${FULL}\n\`\`\``, null],
    ['first bad commit before a fence', `The first bad commit is:\n\`\`\`\n${FULL}\n\`\`\``, { kind: 'statement', type: 'sha', text: FULL }],
    ['bisect points to', 'git bisect points to 3e9a1f2 (cache refactor).', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['bisect found', 'bisect found 3e9a1f2 as the first bad commit', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['bisect says', "bisect says it's #4411", { kind: 'pr-ref', type: 'pr', text: '#4411' }],
    ['bisect lands on', 'Bisection lands on 3e9a1f2.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['bisect result colon', 'Bisect result: 3e9a1f2', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['regression introduced by a PR', 'This regression was introduced by #4411.', { kind: 'pr-ref', type: 'pr', text: '#4411' }],
    ['introduced in a SHA', 'It was introduced in 3e9a1f2 when the cache moved.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['caused by a commit URL', `Caused by https://github.com/acme/widget/commit/${FULL}`, { kind: 'commit-url', type: 'commit-url', text: `https://github.com/acme/widget/commit/${FULL}` }],
    ['caused by a PR URL', 'caused by https://github.com/acme/widget/pull/4411 for sure', { kind: 'pr-ref', type: 'pr', text: 'https://github.com/acme/widget/pull/4411' }],
    ['the culprit is', 'The culprit is 3e9a1f2.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['culprit colon', 'Culprit: `3e9a1f2`', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['postfix is the culprit', '3e9a1f2 is the culprit.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['postfix with a quoted subject', '`3e9a1f2` ("cache: drop stale entries") is the first bad commit.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['postfix broke it', '#4411 broke this for everyone on Windows.', { kind: 'pr-ref', type: 'pr', text: '#4411' }],
    [
      'commit URL inside a pull request',
      `The culprit is https://github.com/acme/widget/pull/4411/commits/${FULL}`,
      { kind: 'commit-url', type: 'commit-url', text: `https://github.com/acme/widget/pull/4411/commits/${FULL}` },
    ],
    [
      'markdown link to a commit',
      `Bisected to [\`8f14e45\`](https://github.com/acme/widget/commit/${FULL}).`,
      { kind: 'commit-url', type: 'commit-url', text: `https://github.com/acme/widget/commit/${FULL}` },
    ],
    ['owner/name@sha', 'The regression was introduced by other/lib@3e9a1f2.', { kind: 'statement', type: 'sha', text: 'other/lib@3e9a1f2' }],
    ['owner/name#N', 'regression introduced by other/lib#77', { kind: 'pr-ref', type: 'pr', text: 'other/lib#77' }],
    ['hard-wrapped sentence', 'After a long evening I bisected\nthe regression to 3e9a1f2, which\nchanged the cache.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['inside a quote', '> I bisected this to 3e9a1f2.\n\nThanks!', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
    ['wrapped inside a quote', '> I bisected this\n> to 3e9a1f2.', { kind: 'statement', type: 'sha', text: '3e9a1f2' }],
  ])('%s', (_name, body, want) => {
    const found = one(body);
    if (want === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.objectContaining({ ...want, hedged: false })]);
  });

  it('reads git bisect output with its commit block as one span', () => {
    const body = [
      'Steps done, output:',
      '',
      '```',
      'Bisecting: 3 revisions left to test after this (roughly 2 steps)',
      `${FULL} is the first bad commit`,
      `commit ${FULL}`,
      'Author: Sam Park <sam@example.com>',
      'Date:   Mon Apr 1 10:00:00 2024 +0000',
      '',
      '    cache: drop stale entries',
      '',
      '    Fixes #12, which was introduced by 0a1b2c3d.',
      '',
      ' src/cache.c | 4 ++--',
      ' 1 file changed, 2 insertions(+), 2 deletions(-)',
      'bisect found first bad commit',
      '```',
    ].join('\n');
    const [a, ...rest] = extractAttributions(aThread([body]));
    expect(rest).toEqual([]);
    expect(a!.kind).toBe('bisect-output');
    expect(a!.ref.text).toBe(FULL);
    expect(a!.sentence.text.startsWith(`${FULL} is the first bad commit\ncommit ${FULL}`)).toBe(true);
    expect(a!.sentence.text.endsWith(' 1 file changed, 2 insertions(+), 2 deletions(-)')).toBe(true);
    expect(body.slice(a!.sentence.start, a!.sentence.end)).toBe(a!.sentence.text);
  });

  it('reads a quoted bisect output block', () => {
    const body = `> ${FULL} is the first bad commit\n> commit ${FULL}\n> Author: A <a@b>\n>\n>     subject line\n\nsee above`;
    const [a] = extractAttributions(aThread([body]));
    expect(a!.kind).toBe('bisect-output');
    expect(a!.sentence.text).toBe(`${FULL} is the first bad commit\n> commit ${FULL}\n> Author: A <a@b>\n>\n>     subject line`);
  });

  it('reads the last line of a git bisect log', () => {
    const body = `git bisect start\n# bad: [${OTHER}] v2\n# first bad commit: [${FULL}] cache: drop stale entries`;
    const found = extractAttributions(aThread([body]));
    expect(found.map((a) => [a.kind, a.ref.text, a.sentence.text])).toEqual([
      ['bisect-output', FULL, `# first bad commit: [${FULL}] cache: drop stale entries`],
    ]);
  });

  it('handles CRLF line endings', () => {
    const body = `Broken since 2.4.\r\n\r\n\`\`\`\r\n${FULL} is the first bad commit\r\ncommit ${FULL}\r\nAuthor: A <a@b>\r\n\r\n    subject\r\n\`\`\`\r\nAlso the culprit is\r\n3e9a1f2.`;
    const found = extractAttributions(aThread([body]));
    expect(found.map((a) => [a.kind, a.ref.text, body.slice(a.start, a.end)])).toEqual([
      ['bisect-output', FULL, FULL],
      ['statement', '3e9a1f2', '3e9a1f2'],
    ]);
    expect(found[0]!.sentence.text).toBe(`${FULL} is the first bad commit\r\ncommit ${FULL}\r\nAuthor: A <a@b>\r\n\r\n    subject`);
    expect(found[1]!.sentence.text).toBe('Also the culprit is\r\n3e9a1f2.');
  });

  it('lists attributions in post order, then offset order, with author and time', () => {
    const t = aThread(['The culprit is 3e9a1f2. Also bisect says 4b5c6d7e.', 'Bisected to #9.'], { authors: ['ann', 'bob'] });
    const found = extractAttributions(t);
    expect(found.map((a) => [a.post, a.ref.text, a.author, a.createdAt])).toEqual([
      [0, '3e9a1f2', 'ann', '2024-05-01T00:00:00Z'],
      [0, '4b5c6d7e', 'ann', '2024-05-01T00:00:00Z'],
      [1, '#9', 'bob', '2024-05-02T00:00:00Z'],
    ]);
    expect(found[0]!.sentence.text).toBe('The culprit is 3e9a1f2.');
    expect(found[1]!.sentence.text).toBe('Also bisect says 4b5c6d7e.');
  });
});

describe('extractAttributions: not attributions', () => {
  it.each([
    ['a bare SHA', 'I am building from 3e9a1f2 on main.'],
    ['a bare SHA next to suspicion without a verb', 'This commit looks suspicious: 3e9a1f2'],
    ['bisect good and bad lines', 'git bisect good 3e9a1f2\ngit bisect bad 4b5c6d7e'],
    ['a negated first bad commit', 'The first bad commit is not 3e9a1f2, that one passes.'],
    ['skipped bisect', 'The first bad commit could be any of:\n3e9a1f2\n4b5c6d7e'],
    ['first bad commit is one of', 'the first bad commit is one of 3e9a1f2 and 4b5c6d7e'],
    ['a bisect range', 'I bisected between 3e9a1f2 and 4b5c6d7e but could not finish.'],
    ['a sentence break before the reference', 'I bisected it. Then I looked at 3e9a1f2 for fun.'],
    ['a paragraph break before the reference', 'Bisected to\n\n3e9a1f2'],
    ['an English word made of hex letters', 'The regression was introduced by defaced assets.'],
    ['a number that is not a SHA', 'It was introduced in 20240105 nightly.'],
    ['the fix', 'Fixed by 3e9a1f2.'],
    ['an issue link', 'Same as https://github.com/acme/widget/issues/12'],
    ['a feature introduced in a PR', 'The `--strict` flag was introduced in #4411.'],
  ])('%s', (_name, body) => {
    expect(one(body)).toEqual([]);
  });
});

describe('extractAttributions: hedging', () => {
  it.each([
    ['maybe', 'Maybe the regression was introduced by 3e9a1f2.'],
    ['might', 'It might be that bisect points to 3e9a1f2.'],
    ['I think', 'I think the culprit is 3e9a1f2.'],
    ['I suspect', 'I suspect it was caused by #4411.'],
    ['possibly', 'Possibly introduced in 3e9a1f2.'],
    ['could be', 'The culprit could be 3e9a1f2.'],
    ['not sure', 'Not sure, but bisect says 3e9a1f2.'],
    ['probably', 'It is probably caused by #4411.'],
    ['seems like', 'Seems like the first bad commit is 3e9a1f2.'],
    ['a question', 'Could this be caused by #4411?'],
  ])('%s', (_name, body) => {
    expect(one(body)).toEqual([expect.objectContaining({ hedged: true })]);
  });

  it('hedges a bisect output by its introduction, not by its commit message', () => {
    const block = `\`\`\`\n${FULL} is the first bad commit\ncommit ${FULL}\nAuthor: A <a@b>\n\n    maybe fix the cache\n\`\`\``;
    expect(one(`Here is the result:\n${block}`)).toEqual([expect.objectContaining({ kind: 'bisect-output', hedged: false })]);
    expect(one(`I might have messed up a step, but:\n${block}`)).toEqual([expect.objectContaining({ kind: 'bisect-output', hedged: true })]);
    const withTranscript = block.replace('```\n', '```\n$ git bisect run make test\nBisecting: 3 revisions left to test after this (roughly 2 steps)\n');
    expect(one(`I might have messed up a step, but:\n${withTranscript}`)).toEqual([expect.objectContaining({ kind: 'bisect-output', hedged: true })]);
  });

  it('does not hedge an attribution because of a neighbouring sentence', () => {
    expect(one('The culprit is 3e9a1f2. Maybe we should add a test.')).toEqual([expect.objectContaining({ hedged: false })]);
  });
});
