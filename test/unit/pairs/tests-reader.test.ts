import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { buildCommand, checkTemplate, flakyIds, parseJunit, runCondition } from '../../../src/pairs/tests.js';
import { tempDir } from '../../support/make-repo.js';

describe('test command template', () => {
  it('passes each id as one shell word, exactly', async () => {
    const ids = ['test/a b.sh', "it's.sh", '$(touch pwned)', 'x;y'];
    const cmd = buildCommand(`printf '%s\\n' {tests}`, ids);
    const r = await execa('/bin/sh', ['-c', cmd]);
    expect(r.stdout.split('\n')).toEqual(ids);
  });
  it('replaces {junit} with a quoted path', () => {
    expect(buildCommand('run --junit {junit} {tests}', ['a'], '/tmp/x y.xml')).toBe(`run --junit '/tmp/x y.xml' a`);
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

describe('runCondition', () => {
  it('runs each id alone, once per repeat, in a fresh directory, and judges by exit code', async () => {
    const prepared: string[] = [];
    const r = await runCondition({
      prepare: async () => {
        const dir = await tempDir('r2v-cond-');
        prepared.push(dir);
        return dir;
      },
      template: 'test {tests} = ok && test ! -e marker && touch marker',
      files: ['ok', 'bad'],
      repeats: 2,
      timeoutMs: 10_000,
    });
    expect(prepared).toHaveLength(2);
    expect(Object.fromEntries(r.outcomes)).toEqual({ ok: ['pass', 'pass'], bad: ['fail', 'fail'] });
    expect(r.runs.map((x) => `${x.repeat}:${x.testId}:${x.exitCode}`)).toEqual(['0:ok:0', '0:bad:1', '1:ok:0', '1:bad:1']);
  });

  it('fails instead of grading when the run is interrupted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      runCondition({
        prepare: () => tempDir('r2v-cond-'),
        template: 'sleep 5; true {tests}',
        files: ['a'],
        repeats: 2,
        timeoutMs: 10_000,
        signal: controller.signal,
      }),
    ).rejects.toThrow('test run interrupted');
  });
});
