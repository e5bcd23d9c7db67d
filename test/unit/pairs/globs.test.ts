import { describe, expect, it } from 'vitest';
import { compileGlobs, DEFAULT_TEST_GLOBS, expandBraces, globToRegExp } from '../../../src/pairs/globs.js';

describe('globToRegExp', () => {
  it.each([
    ['tests/**', 'tests/a.py', true],
    ['tests/**', 'tests/deep/x/y.py', true],
    ['tests/**', 'src/tests/a.py', false],
    ['tests/**', 'tests', false],
    ['**/test_*.py', 'test_a.py', true],
    ['**/test_*.py', 'pkg/sub/test_a.py', true],
    ['**/test_*.py', 'pkg/latest_a.py', false],
    ['**/*_test.go', 'internal/x/y_test.go', true],
    ['**/*_test.go', 'internal/x/ytest.go', false],
    ['**/__tests__/**', '__tests__/a.js', true],
    ['**/__tests__/**', 'src/__tests__/deep/a.js', true],
    ['**/__tests__/**', 'src/__tests__', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/sub/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'c.txt', true],
    ['[!ab].txt', 'a.txt', false],
    ['*.{js,ts}', 'deep/x.ts', true],
    ['*.{js,ts}', 'deep/x.py', false],
    ['*.spec.ts', 'a/b/x.spec.ts', true],
    ['file\\*.txt', 'file*.txt', true],
    ['file\\*.txt', 'fileX.txt', false],
    ['./docs/*.md', 'docs/a.md', true],
    ['a.b', 'aXb', false],
    ['(x)+', '(x)+', true],
  ])('%s vs %s → %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  it('rejects an empty glob', () => {
    expect(() => globToRegExp('')).toThrow(/empty glob/);
  });

  it('expands nested braces', () => {
    expect(expandBraces('a/{b,c{d,e}}/f')).toEqual(['a/b/f', 'a/cd/f', 'a/ce/f']);
    expect(expandBraces('x{y}z')).toEqual(['x\\{y\\}z']);
  });
});

describe('default test globs', () => {
  const isTest = compileGlobs(DEFAULT_TEST_GLOBS);
  it.each([
    ['tests/test_x.py', true],
    ['pkg/test_x.py', true],
    ['pkg/x_test.py', true],
    ['cmd/x_test.go', true],
    ['src/a.test.ts', true],
    ['src/a.spec.js', true],
    ['src/__tests__/a.js', true],
    ['src/test/java/A.java', true],
    ['spec/a_spec.rb', true],
    // Substrings of "test" are not tests.
    ['src/latest.js', false],
    ['src/contest/a.py', false],
    ['testing/fixtures.py', false],
    ['src/attest.go', false],
    ['docs/testing.md', false],
  ])('%s → %s', (path, expected) => {
    expect(isTest(path)).toBe(expected);
  });
});
