import { describe, expect, it } from 'vitest';
import { compileGlob, globMatcher, globProblem, literalGlob, matchGlob } from '../../../src/mergeability/glob.js';
import { globToRegExp } from '../../../src/pairs/globs.js';

describe('rubric glob dialect', () => {
  it.each([
    // `**` crosses `/`, as a whole segment it may match zero directories
    ['src/**', 'src/a.ts', true],
    ['src/**', 'src/deep/x/y.ts', true],
    ['src/**', 'lib/src/a.ts', false],
    ['src/**', 'src', false],
    ['**/conftest.py', 'conftest.py', true],
    ['**/conftest.py', 'a/b/conftest.py', true],
    ['**/conftest.py', 'a/b/not_conftest.py', false],
    ['src/**/util.ts', 'src/util.ts', true],
    ['src/**/util.ts', 'src/a/b/util.ts', true],
    ['**', 'any/path/at/all', true],
    // `*` and `?` never cross `/`
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/sub/a.ts', false],
    ['src/*', 'src/sub/a.ts', false],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['src/a**b.ts', 'src/aXYb.ts', true],
    ['src/a**b.ts', 'src/a/b.ts', false],
    // a glob without `/` is anchored at the root (fnmatch and basename matching would say true)
    ['*.yml', 'ci.yml', true],
    ['*.yml', 'docs/conf/site.yml', false],
    ['Makefile', 'sub/Makefile', false],
    // character classes, escapes
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'c.txt', true],
    ['[!ab].txt', 'a.txt', false],
    ['x[!a]y', 'x/y', false],
    ['file\\*.txt', 'file*.txt', true],
    ['file\\*.txt', 'fileX.txt', false],
    // no braces, no extglob: those characters are literal
    ['*.{js,ts}', 'x.ts', false],
    ['*.{js,ts}', 'x.{js,ts}', true],
    ['!(a).txt', 'b.txt', false],
    ['!(a).txt', '!(a).txt', true],
    ['+(x)', '+(x)', true],
    ['a.b', 'aXb', false],
  ])('%s vs %s → %s', (glob, path, expected) => {
    expect(matchGlob(glob, path)).toBe(expected);
  });

  it('keeps a `*` from crossing `/`: the maintainer’s fix in a nested config directory is not a root CI file', () => {
    // A prototype with fnmatch semantics denied `*.yml` and so rejected a fix touching
    // `src/config/defaults.yml`; in this dialect the denial only reaches root-level YAML files.
    const denied = globMatcher(['.github/**', '*.yml']);
    expect(denied('src/config/defaults.yml')).toBe(false);
    expect(denied('.travis.yml')).toBe(true);
    expect(denied('.github/workflows/ci.yml')).toBe(true);
  });

  it.each([
    ['', /empty glob/],
    ['/src/**', /no leading \//],
    ['./src/**', /no leading \.\//],
    ['src/', /ends with \//],
    ['src//a', /empty path segment/],
    ['src/../x', /\. or \.\. segment/],
  ])('refuses %j', (glob, message) => {
    expect(globProblem(glob)).toMatch(message);
    expect(() => compileGlob(glob)).toThrow(message);
  });

  it('matches nothing with an empty list', () => {
    expect(globMatcher([])('a')).toBe(false);
  });

  it('writes a literal glob for any path', () => {
    for (const p of ['setup.py', 'weird[1]*?.txt', 'a\\b']) expect(matchGlob(literalGlob(p), p)).toBe(true);
    expect(matchGlob(literalGlob('a*.txt'), 'abc.txt')).toBe(false);
  });

  it('is the translator under the pair miner’s globs, which add braces and file-name-anywhere', () => {
    expect(globToRegExp('src/*.ts').test('src/sub/a.ts')).toBe(false);
    expect(globToRegExp('*.{js,ts}').test('deep/x.ts')).toBe(true);
    expect(matchGlob('*.ts', 'deep/x.ts')).toBe(false);
  });
});
