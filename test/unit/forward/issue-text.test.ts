import { describe, expect, it } from 'vitest';
import { buildIssueText, findReferences, referenceSpans } from '../../../src/forward/issue-text.js';
import { applyDeletions, isDeletionOf } from '../../../src/sanitize/delete.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const OTHER = 'fedcba9876543210fedcba9876543210fedcba98';
const pull = { repo: 'acme/widgets', number: 42, createdAt: '2024-02-01T12:00:00Z', commitShas: [SHA] };

describe('findReferences / referenceSpans', () => {
  const cut = (text: string): string => {
    return applyDeletions(text, referenceSpans(text, pull)).text;
  };

  it.each([
    ['See https://github.com/acme/widgets/pull/42 for context', 'See  for context'],
    ['See https://github.com/acme/widgets/pull/42/files#diff-1 too', 'See  too'],
    ['Related: #42, not #420 or #4', 'Related: , not #420 or #4'],
    ['Related: acme/widgets#42 and GH-42', 'Related:  and '],
    ['PR 42 looks right; PR 420 and 42 apples stay', ' looks right; PR 420 and 42 apples stay'],
    ['Saw pull request 42 today', 'Saw  today'],
    [`Compare ${SHA.slice(0, 7)} with ${OTHER.slice(0, 7)}`, `Compare  with ${OTHER.slice(0, 7)}`],
    [`Commit https://github.com/acme/widgets/commit/${SHA} is interesting`, 'Commit  is interesting'],
    [`Unrelated https://github.com/acme/widgets/commit/${OTHER} stays`, `Unrelated https://github.com/acme/widgets/commit/${OTHER} stays`],
    ['Look at [the change](https://github.com/acme/widgets/pull/42) later', 'Look at  later'],
    ['I think [this](https://github.com/acme/widgets/pull/42) resolves it.\nNext', '\nNext'],
    ['Another repo https://github.com/other/thing/pull/42 stays', 'Another repo https://github.com/other/thing/pull/42 stays'],
    ['Entity &#42; stays', 'Entity &#42; stays'],
    ['Bare github.com/acme/widgets/pull/42 link', 'Bare  link'],
    ['API https://ghe.example.com/api/v3/repos/acme/widgets/pulls/42 too', 'API  too'],
    [`Short ${'github.com/acme/widgets/commit/' + SHA.slice(0, 9)} here`, 'Short  here'],
    ['The parser crashes; this is fixed by #42. Next.', 'The parser crashes;  Next.'],
    ['It fails (see #42, which fixes it) on start', 'It fails  on start'],
  ])('%s', (text, expected) => {
    expect(cut(text)).toBe(expected);
  });

  it('deletes a whole "fixed by" sentence but keeps the paths it names', () => {
    const text = 'The parser crashes. This is fixed by #42 in src/parse.ts now. Thanks!';
    expect(cut(text)).toBe('The parser crashes. src/parse.ts Thanks!');
  });

  it('leaves paths, error messages and other issue numbers alone', () => {
    const text = 'Crash in src/widgets/render.ts line 42: TypeError (see #41).';
    expect(findReferences(text, pull)).toEqual([]);
  });

});

describe('buildIssueText', () => {
  const issue = {
    title: 'Widgets crash on empty input',
    body: 'Steps: run `widgets --empty`.\nFixed in https://github.com/acme/widgets/pull/42.',
    createdAt: '2024-01-20T00:00:00Z',
    comments: [
      { id: 1, author: 'alice', createdAt: '2024-01-25T00:00:00Z', body: `Also with ${SHA.slice(0, 10)} checked out.` },
      { id: 2, author: 'bob', createdAt: '2024-02-01T12:00:00Z', body: 'Opened the fix.' },
      { id: 3, author: 'carol', createdAt: '2024-02-03T00:00:00Z', body: 'Merged, thanks' },
    ],
  };

  it('keeps only comments written before the PR was opened and deletes references to it', () => {
    const r = buildIssueText(issue, pull);
    expect(r.text).toBe(
      'Widgets crash on empty input\n\nSteps: run `widgets --empty`.\n\n\n--- comment by @alice at 2024-01-25T00:00:00Z ---\n\nAlso with  checked out.',
    );
    expect(r.excludedComments).toEqual([
      { id: 2, createdAt: '2024-02-01T12:00:00Z' },
      { id: 3, createdAt: '2024-02-03T00:00:00Z' },
    ]);
    expect(r.deletions.map((d) => [d.detector, d.text])).toEqual([
      ['fix-sentence', 'Fixed in https://github.com/acme/widgets/pull/42.'],
      ['sha', SHA.slice(0, 10)],
    ]);
    expect(isDeletionOf(r.original, r.text, r.deletions)).toBe(true);
  });

  it('never deletes inside the separators it adds', () => {
    const r = buildIssueText({ ...issue, body: '#42', comments: [{ id: 9, author: 'x42', createdAt: '2024-01-21T00:00:00Z', body: '#42' }] }, pull);
    expect(r.text).toBe('Widgets crash on empty input\n\n\n\n--- comment by @x42 at 2024-01-21T00:00:00Z ---\n\n');
  });
});
