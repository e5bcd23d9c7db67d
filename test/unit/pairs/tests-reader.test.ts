import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { buildCommand, checkTemplate, flakyIds, parseJunit, shellQuote } from '../../../src/pairs/tests.js';

describe('test command template', () => {
  it('passes each id as one shell word, exactly', async () => {
    const ids = ['test/a b.sh', "it's.sh", '$(touch pwned)', 'x;y'];
    const cmd = buildCommand(`printf '%s\\n' {tests}`, ids);
    const r = await execa('/bin/sh', ['-c', cmd]);
    expect(r.stdout.split('\n')).toEqual(ids);
  });
  it('replaces {junit} with a quoted path', () => {
    expect(buildCommand('run --junit {junit} {tests}', ['a'], '/tmp/x y.xml')).toBe(`run --junit '/tmp/x y.xml' 'a'`);
  });
  it('quotes single quotes', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
  it('rejects a template without {tests}, naming the repository', () => {
    expect(() => checkTemplate('acme/x', 'npm test')).toThrow(/repos\.acme\/x\.test_command: must contain \{tests\}/);
  });
});

describe('parseJunit', () => {
  it('reads test cases with file, failure, error and skipped', () => {
    const xml = `<?xml version="1.0"?>
<testsuites>
  <testsuite name="s" file="test/a.test.js">
    <testcase classname="a" name="adds &amp; multiplies" time="0.1"/>
    <testcase classname="a" name="fails"><failure message="x">boom</failure></testcase>
  </testsuite>
  <testsuite name="t">
    <testcase classname="pkg.mod" name="errs" file="tests/test_b.py"><error/></testcase>
    <testcase classname="pkg.mod" name="skipped"><skipped/></testcase>
    <!-- <testcase name="commented"/> -->
  </testsuite>
</testsuites>`;
    expect(parseJunit(xml)).toEqual([
      { id: 'pkg.mod::skipped', outcome: 'missing' },
      { id: 'test/a.test.js::adds & multiplies', outcome: 'pass' },
      { id: 'test/a.test.js::fails', outcome: 'fail' },
      { id: 'tests/test_b.py::errs', outcome: 'fail' },
    ]);
  });
  it('returns nothing for a report without test cases', () => {
    expect(parseJunit('<testsuites/>')).toEqual([]);
  });
});

describe('flakyIds', () => {
  it('lists ids whose repeats disagree', () => {
    expect(flakyIds(new Map([['a', ['pass', 'pass']], ['b', ['fail', 'pass']], ['c', ['missing', 'fail']]] as const))).toEqual(['b', 'c']);
  });
});
