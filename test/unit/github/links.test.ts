import { describe, expect, it } from 'vitest';
import { blankCode, findClosingReferences } from '../../../src/github/links.js';

const REPO = 'acme/widget';
const refs = (text: string): [number, string, string][] => findClosingReferences(text, REPO).map((r) => [r.issue, r.keyword, r.evidence]);

describe('findClosingReferences', () => {
  it.each([
    ['Fixes #1, closes #2', [[1, 'fixes', 'Fixes #1'], [2, 'closes', 'closes #2']]],
    ['`fixes #3`', []],
    ['Use ``closes #3`` to close', []],
    ['```\nfixes #4\n```\nresolved: #5', [[5, 'resolved', 'resolved: #5']]],
    ['~~~sh\nfix #4\n~~~', []],
    ['close #1 fix #2 resolve #3 closed #4 fixed #5 resolves #6', [[1, 'close', 'close #1'], [2, 'fix', 'fix #2'], [3, 'resolve', 'resolve #3'], [4, 'closed', 'closed #4'], [5, 'fixed', 'fixed #5'], [6, 'resolves', 'resolves #6']]],
    ['FIXES: #7.', [[7, 'fixes', 'FIXES: #7']]],
    ['fixes acme/widget#8 and fixes other/repo#9', [[8, 'fixes', 'fixes acme/widget#8']]],
    ['Closes https://github.com/acme/widget/issues/10', [[10, 'closes', 'Closes https://github.com/acme/widget/issues/10']]],
    ['Closes https://github.com/acme/widget/pull/11 and closes https://ghe.example.com/other/x/issues/12', []],
    ['prefixes #3, suffix-fixes #4, fixes#5, fixes #6a', []],
    ['Fixed #12\nResolves #13', [[12, 'fixed', 'Fixed #12'], [13, 'resolves', 'Resolves #13']]],
  ])('%j', (text, expected) => {
    expect(refs(text)).toEqual(expected);
  });

  it('blanks code without moving offsets', () => {
    const text = 'a `b` c\n```\nd\n```\ne';
    const blanked = blankCode(text);
    expect(blanked).toHaveLength(text.length);
    expect(blanked).toBe('a     c\n   \n \n   \ne');
  });
});
