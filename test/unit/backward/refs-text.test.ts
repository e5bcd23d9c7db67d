import { describe, expect, it } from 'vitest';
import { findRefs, isCrossRepository, sameTarget } from '../../../src/backward/refs.js';
import { layoutOf, sentenceAt, sentencesOf } from '../../../src/backward/text.js';
import type { AttributionRef } from '../../../src/model/backward.js';

const FULL = '8f14e45fceea167a5a36dedd4bea2543a1b2c3d4';

describe('findRefs', () => {
  it.each([
    ['abbreviated SHA', 'see 3e9a1f2 now', { type: 'sha', text: '3e9a1f2', value: '3e9a1f2', urlRepo: null }],
    ['upper-case SHA', 'see 3E9A1F2 now', { type: 'sha', text: '3E9A1F2', value: '3e9a1f2', urlRepo: null }],
    ['GitHub commit URL', `at https://github.com/o/n/commit/${FULL}#diff-1`, { type: 'commit-url', text: `https://github.com/o/n/commit/${FULL}`, value: FULL, urlRepo: 'o/n' }],
    ['GitHub Enterprise commit URL', `https://git.corp.example:8443/o/n/commit/${FULL}`, { type: 'commit-url', text: `https://git.corp.example:8443/o/n/commit/${FULL}`, value: FULL, urlRepo: 'o/n' }],
    ['commit inside a PR', `https://github.com/o/n/pull/12/commits/${FULL}`, { type: 'commit-url', text: `https://github.com/o/n/pull/12/commits/${FULL}`, value: FULL, urlRepo: 'o/n' }],
    ['GitLab commit URL', `https://gitlab.com/g/sub/p/-/commit/${FULL}`, { type: 'commit-url', text: `https://gitlab.com/g/sub/p/-/commit/${FULL}`, value: FULL, urlRepo: 'g/sub/p' }],
    ['gitiles commit URL', `https://chromium.googlesource.com/v8/v8/+/${FULL}`, { type: 'commit-url', text: `https://chromium.googlesource.com/v8/v8/+/${FULL}`, value: FULL, urlRepo: 'chromium.googlesource.com/v8/v8' }],
    ['PR URL', 'https://github.com/o/n/pull/0123', { type: 'pr', text: 'https://github.com/o/n/pull/0123', value: '123', urlRepo: 'o/n' }],
    ['#N', 'in #4411.', { type: 'pr', text: '#4411', value: '4411', urlRepo: null }],
    ['owner/name#N', 'in o/n#7', { type: 'pr', text: 'o/n#7', value: '7', urlRepo: 'o/n' }],
    ['owner/name@sha', 'in o/n@3e9a1f2', { type: 'sha', text: 'o/n@3e9a1f2', value: '3e9a1f2', urlRepo: 'o/n' }],
  ])('%s', (_name, text, ref) => {
    const found = findRefs(text);
    expect(found.map((r) => r.ref)).toEqual([ref]);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe(ref.text);
  });

  it.each([
    ['a decimal number', 'took 12345678 ms'],
    ['an English word', 'the defaced accessed'],
    ['a hex run inside a word', 'id_3e9a1f2x and x3e9a1f2'],
    ['an HTML entity', '&#39;'],
    ['an issue URL', 'https://github.com/o/n/issues/12'],
    ['too short', 'abc12'],
    ['a hex run in a file name', 'report-3e9a1f2.txt'],
  ])('ignores %s', (_name, text) => {
    expect(findRefs(text)).toEqual([]);
  });
});

describe('sameTarget / isCrossRepository', () => {
  const sha = (value: string, urlRepo: string | null = null): AttributionRef => ({ type: 'sha', text: value, value, urlRepo });
  const pr = (value: string, urlRepo: string | null = null): AttributionRef => ({ type: 'pr', text: `#${value}`, value, urlRepo });
  it('matches prefixes in either direction and equal PR numbers', () => {
    expect(sameTarget(sha('3e9a1f2'), sha('3e9a1f2c0d'))).toBe(true);
    expect(sameTarget(sha('3e9a1f2c0d'), sha('3e9a1f2'))).toBe(true);
    expect(sameTarget(sha('3e9a1f2'), sha('3e9a1f3'))).toBe(false);
    expect(sameTarget(pr('12'), pr('12'))).toBe(true);
    expect(sameTarget(pr('12'), sha('1234567a'))).toBe(false);
    expect(sameTarget(sha('3e9a1f2', 'a/b'), sha('3e9a1f2', 'c/d'))).toBe(false);
  });
  it('compares repositories case-insensitively', () => {
    expect(isCrossRepository(sha('3e9a1f2', 'Acme/Widget'), 'acme/widget')).toBe(false);
    expect(isCrossRepository(sha('3e9a1f2', 'dep/lib'), 'acme/widget')).toBe(true);
    expect(isCrossRepository(sha('3e9a1f2'), 'acme/widget')).toBe(false);
  });
});

describe('sentences', () => {
  const texts = (body: string): string[] => sentencesOf(layoutOf(body)).map((r) => body.slice(r.start, r.end));

  it('splits prose at sentence ends, not inside versions or abbreviations', () => {
    expect(texts('Broken in v1.2.3. Works in 1.2.2, e.g. on Linux! Why?')).toEqual(['Broken in v1.2.3.', 'Works in 1.2.2, e.g. on Linux!', 'Why?']);
  });

  it('joins hard-wrapped lines and keeps list items, quotes and code lines apart', () => {
    const body = 'First line\nwraps here.\n- item one\n- item two\n> quoted\n> more\n\n```\ncode a\ncode b\n```';
    expect(texts(body)).toEqual(['First line\nwraps here.', 'item one', 'item two', 'quoted\n> more', '```', 'code a', 'code b', '```']);
  });

  it('finds the sentence around an offset', () => {
    const body = 'One. Two three. Four';
    const at = (pos: number): string => {
      const r = sentenceAt(layoutOf(body), pos);
      return body.slice(r.start, r.end);
    };
    expect(at(0)).toBe('One.');
    expect(at(body.indexOf('three'))).toBe('Two three.');
    expect(at(body.length - 1)).toBe('Four');
  });
});
