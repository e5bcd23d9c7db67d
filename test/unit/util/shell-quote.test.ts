import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../../src/util/shell-quote.js';

describe('shellQuote', () => {
  it('leaves words the shell takes literally as they are', () => {
    expect(['plain-word_1.2', 'tests/test_a.py::test_b', '-Dtest=A', 'k=v@x%y+z:w'].map(shellQuote)).toEqual([
      'plain-word_1.2', 'tests/test_a.py::test_b', '-Dtest=A', 'k=v@x%y+z:w',
    ]);
  });

  it('single-quotes every other word, a quote inside included', () => {
    expect(shellQuote("it's [x]")).toBe(`'it'\\''s [x]'`);
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(shellQuote('')).toBe(`''`);
    expect(shellQuote('-Dtest=A#b')).toBe(`'-Dtest=A#b'`);
  });

  it('hands /bin/sh each word exactly as written', async () => {
    const words = ['plain', 'a b', "it's", '$(touch pwned)', 'x;y', '*', '~', '$HOME', 'back\\slash', '', 'line\nbreak', '-Dtest=A#b'];
    const r = await execa('/bin/sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`]);
    expect(r.stdout.split('\0').slice(0, -1)).toEqual(words);
  });
});
