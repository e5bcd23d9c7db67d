import { describe, expect, it } from 'vitest';
import { compilePattern, matchList, PatternError } from '../../../src/routing/index.js';
import { isIncluded } from '../../../src/routing/pattern.js';

const matches = (pattern: string, subject: string): boolean => compilePattern(pattern).regex.test(subject);

describe('compilePattern', () => {
  it('splits a leading ! into the negative flag and keeps the source as written', () => {
    const p = compilePattern('!docs/**');
    expect(p.negative).toBe(true);
    expect(p.source).toBe('!docs/**');
    expect(p.regex.test('docs/a.md')).toBe(true);
    expect(compilePattern('docs/**').negative).toBe(false);
  });

  it.each([
    ['*', 'a.txt', true],
    ['*', 'a/b.txt', false],
    ['*', '', true],
    ['**', 'a/b/c', true],
    ['**/x', 'x', true],
    ['**/x', 'a/b/x', true],
    ['**/x', 'ax', false],
    ['a/**', 'a/', true],
    ['a/**', 'a', false],
    ['*.jsx?', 'x.js', true],
    ['*.jsx?', 'x.jsx', true],
    ['*.jsx?', 'x.jsxx', false],
    ['a+', 'aaa', true],
    ['a+', '', false],
    ['+a', '+a', true],
    ['?a', '?a', true],
    ['?a', 'a', false],
    ['[abc]', 'b', true],
    ['[abc]', 'd', false],
    ['[a-c0-2]x', '1x', true],
    ['[A-Z]', 'Q', true],
    ['[A-Z]', 'q', false],
    ['\\*', '*', true],
    ['\\*', 'a', false],
    ['a\\?', 'a?', true],
    ['a\\?', 'a', false],
    ['a.b', 'a.b', true],
    ['a.b', 'axb', false],
    ['(x)|{y}^$', '(x)|{y}^$', true],
    ['a!b', 'a!b', true],
    ['*?', 'abc', true],
    ['é+', 'ééé', true],
    ['**', 'line\nbreak', true],
  ])('%s on %j → %s', (pattern, subject, expected) => {
    expect(matches(pattern, subject)).toBe(expected);
  });

  it('is case-sensitive', () => {
    expect(matches('Docs/**', 'docs/a')).toBe(false);
  });

  it.each([
    ['[]', 'empty brackets'],
    ['[z-a]', 'invalid range'],
    ['[a-Z]', 'invalid range'],
    ['[a-9]', 'invalid range'],
    ['[ab', 'missing closing bracket'],
    ['[a_]', "'_' is not allowed"],
    ['[!a]', "'!' is not allowed"],
    ['abc\\', 'escapes nothing'],
    ['a++', 'follows another quantifier'],
    ['*+', 'follows another quantifier'],
    ['a??+', 'follows another quantifier'],
    ['a*??', 'follows another quantifier'],
  ])('rejects %j (%s)', (pattern, problem) => {
    let caught: unknown;
    try {
      compilePattern(pattern);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PatternError);
    expect((caught as Error).message).toContain(`'${pattern}'`);
    expect((caught as Error).message).toContain(problem);
  });
});

describe('matchList (ordered, last match wins)', () => {
  const list = ['*.md', '!README.md', 'README*'].map(compilePattern);

  it('reports the index of the last matching pattern', () => {
    expect(matchList(list, 'hello.md')).toEqual({ included: true, index: 0 });
    expect(matchList(list, 'README.md')).toEqual({ included: true, index: 2 });
    expect(matchList(list, 'docs/hello.md')).toEqual({ included: false, index: -1 });
  });

  it('a negative last match excludes', () => {
    expect(matchList(['**', '!docs/**'].map(compilePattern), 'docs/x')).toEqual({ included: false, index: 1 });
  });

  it('an empty list includes nothing', () => {
    expect(matchList([], 'x')).toEqual({ included: false, index: -1 });
  });
});

describe('isIncluded (literal pre-checks before the regex)', () => {
  const patterns = ['**/*.md', '**.md', 'docs/**', 'a/**', '**', '**/', '**x', '**/package.json', '**/*.json', 'package.json', 'docs/**', 'a?b', 'ab+c', 'x\\*y', '*.jsx?', '[ab]c', 'src/**/index.ts', '**', '*', 'a/**/', '\\[x\\]', 'v[0-9]+.md', '**/x/**/y'];
  const subjects = ['package.json', 'a/package.json', 'tsconfig.json', 'docs', 'docs/a', 'ab', 'b', 'abbbc', 'ac', 'x*y', 'xy', 'a.js', 'a.jsx', 'bc', 'cc', 'src/index.ts', 'src/a/b/index.ts', '', 'a/', '[x]', 'x', 'v10.md', 'x/y', 'q/x/r/y', '/x.md', 'a/.md', '.md', 'docs/a/b.md', 'a//b.md', 'a/b\nc.md', '/', 'a', 'ax', 'x/'];

  it('agrees with the plain ordered regex walk on every pattern and subject', () => {
    for (const a of patterns) {
      for (const b of patterns) {
        const list = [compilePattern(a), compilePattern(`!${b}`)];
        for (const s of subjects) expect(isIncluded(list, s), `${a} !${b} on ${s}`).toBe(matchList(list, s).included);
      }
    }
  });

  it('classifies literal shapes', () => {
    expect(['docs/**', '**/*.md', '**.md', 'a.txt', 'src/*.ts', '**/a/*.md'].map((p) => compilePattern(p).shape)).toEqual(['starts', 'ends', 'ends', 'exact', 'regex', 'regex']);
  });

  it('treats the / of **/ as optional in the suffix', () => {
    expect(compilePattern('**/package.json').suffix).toBe('package.json');
    expect(isIncluded([compilePattern('**/package.json')], 'package.json')).toBe(true);
  });
});
