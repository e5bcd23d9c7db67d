import { describe, expect, it } from 'vitest';
import { classifyRun, decideBoundary, junitIdMatches, parseJunitCases, stateVerdict, type RunClass, type RunObservation } from '../../../src/probe/classify.js';
import { toProbeSpec } from '../../../src/probe/spec.js';

const run = (over: Partial<RunObservation> = {}): RunObservation => ({
  exitCode: 0, signal: null, timedOut: false, stdout: '', stderr: '', junitReport: null, ...over,
});
const spec = (symptom: object, exercised: object = {}) => toProbeSpec({ trigger: 't', symptom, exercised }, 'test');

const JUNIT = `<?xml version="1.0"?>
<testsuite name="s">
  <testcase classname="com.acme.ParserTest" name="parsesEmpty" time="0.1"/>
  <testcase classname="com.acme.ParserTest" name="parsesQuotes" time="0.2">
    <failure message="expected &lt;a&gt;">stack</failure>
  </testcase>
  <testcase classname='tests.test_io' name='test_read[utf-8]'><error/></testcase>
  <testcase classname="com.acme.ParserTest" name="skipped"><skipped/></testcase>
</testsuite>`;

describe('classifyRun', () => {
  it.each([
    ['exit code in a list', spec({ exit_code: [1, 2] }), run({ exitCode: 2 }), 'bad', 'symptom: exit code 2 is a symptom exit code'],
    ['exit code not listed', spec({ exit_code: 1 }), run({ exitCode: 0 }), 'good', 'exercised, no symptom (exit code 0)'],
    ['signal', spec({ signal: 'SIGSEGV' }), run({ exitCode: null, signal: 'SIGSEGV' }), 'bad', 'symptom: killed by SIGSEGV'],
    ['signal reported by the shell as 128+n', spec({ signal: 'SEGV' }), run({ exitCode: 139 }), 'bad', 'symptom: exit code 139 (a child killed by SIGSEGV)'],
    ['stdout substring', spec({ stdout_contains: 'boom' }), run({ stdout: 'a boom b' }), 'bad', 'symptom: stdout contains "boom"'],
    ['stderr substring only in stdout', spec({ stderr_contains: 'boom' }), run({ stdout: 'boom' }), 'good', 'exercised, no symptom (exit code 0)'],
    ['stderr regex, multi-line', spec({ stderr_regex: '^panic: .*nil' }), run({ stderr: 'x\npanic: nil map\n' }), 'bad', 'symptom: stderr matches /^panic: .*nil/'],
    ['any of several predicates', spec({ exit_code: 3, stdout_contains: 'boom' }), run({ exitCode: 0, stdout: 'boom' }), 'bad', 'symptom: stdout contains "boom"'],
    ['timeout wins over a matching signal', spec({ signal: 'SIGTERM' }), run({ exitCode: null, signal: 'SIGTERM', timedOut: true }), 'timeout', 'the trigger did not finish within the timeout'],
    ['marker missing', spec({ exit_code: 1 }, { marker: 'RUNNING' }), run({ stdout: 'nothing' }), 'not-exercised', 'marker "RUNNING" not in the output'],
    ['marker in stderr', spec({ exit_code: 1 }, { marker: 'RUNNING' }), run({ stderr: 'RUNNING' }), 'good', 'exercised, no symptom (exit code 0)'],
    ['exit code outside exercised set', spec({ exit_code: 1 }, { exit_codes: [0, 1] }), run({ exitCode: 4 }), 'not-exercised', 'exit code 4 is not one of the exercised exit codes [0, 1]'],
    ['command not found by default', spec({ exit_code: 1 }), run({ exitCode: 127 }), 'not-exercised', 'the shell could not run the trigger (exit 127)'],
    ['junit failing test', spec({ junit: { report: 'r.xml', failing_test: 'com.acme.ParserTest#parsesQuotes' } }), run({ exitCode: 1, junitReport: JUNIT }), 'bad', 'symptom: test com.acme.ParserTest#parsesQuotes failed in r.xml'],
    ['junit test that passed', spec({ junit: { report: 'r.xml', failing_test: 'com.acme.ParserTest#parsesEmpty' } }), run({ exitCode: 1, junitReport: JUNIT }), 'good', 'exercised, no symptom (exit code 1)'],
    ['junit report missing', spec({ junit: { report: 'r.xml', failing_test: 'com.acme.ParserTest#parsesQuotes' } }), run({ exitCode: 1, junitReport: null }), 'good', 'exercised, no symptom (exit code 1)'],
  ])('%s', (_name, s, r, classification, why) => {
    expect(classifyRun(s, r)).toEqual({ classification, why });
  });
});

describe('JUnit reports', () => {
  it('reads test cases, failed when they hold a failure or an error', () => {
    expect(parseJunitCases(JUNIT)).toEqual([
      { classname: 'com.acme.ParserTest', name: 'parsesEmpty', failed: false },
      { classname: 'com.acme.ParserTest', name: 'parsesQuotes', failed: true },
      { classname: 'tests.test_io', name: 'test_read[utf-8]', failed: true },
      { classname: 'com.acme.ParserTest', name: 'skipped', failed: false },
    ]);
  });
  it.each([
    ['com.acme.ParserTest#parsesQuotes', true],
    ['com.acme.ParserTest.parsesQuotes', true],
    ['com.acme.ParserTest::parsesQuotes', true],
    ['parsesQuotes', true],
    ['ParserTest#parsesQuotes', false],
    ['com.acme.ParserTest#parses', false],
  ])('matches the id %s: %s', (id, expected) => {
    expect(junitIdMatches({ classname: 'com.acme.ParserTest', name: 'parsesQuotes', failed: true }, id)).toBe(expected);
  });
});

describe('stateVerdict', () => {
  it.each<[RunClass[], string, string]>([
    [['bad', 'bad', 'bad'], 'bad', 'all-bad'],
    [['good', 'good', 'good'], 'good', 'all-good'],
    [['good', 'bad', 'good'], 'flaky', 'mixed'],
    [['good', 'bad', 'timeout'], 'flaky', 'mixed'],
    [['bad', 'bad', 'timeout'], 'nonreproducible', 'timeout'],
    [['good', 'not-exercised', 'good'], 'nonreproducible', 'not-exercised'],
    [['setup-failed', 'setup-failed'], 'nonreproducible', 'setup-failed'],
    [[], 'nonreproducible', 'no-runs'],
  ])('%j → %s', (classes, verdict, cause) => {
    expect(stateVerdict(classes)).toMatchObject({ verdict, cause });
  });
});

describe('decideBoundary', () => {
  const v = (classes: RunClass[]) => stateVerdict(classes);
  it.each<[RunClass[], RunClass[], string, string]>([
    [['good', 'good'], ['bad', 'bad'], 'verified', 'parent-good-gold-bad'],
    [['bad', 'bad'], ['bad', 'bad'], 'not-a-boundary', 'bad-at-both'],
    [['good', 'good'], ['good', 'good'], 'not-a-boundary', 'good-at-both'],
    [['bad', 'bad'], ['good', 'good'], 'not-a-boundary', 'bad-at-parent-good-at-gold'],
    [['good', 'bad'], ['bad', 'bad'], 'flaky', 'flaky-parent'],
    [['good', 'good'], ['bad', 'good'], 'flaky', 'flaky-gold'],
    [['good', 'bad'], ['bad', 'good'], 'flaky', 'flaky-both'],
    [['setup-failed'], ['bad', 'bad'], 'nonreproducible', 'parent-setup-failed'],
    [['good', 'good'], ['timeout', 'timeout'], 'nonreproducible', 'gold-timeout'],
    [['good', 'good'], ['not-exercised', 'bad'], 'nonreproducible', 'gold-not-exercised'],
  ])('parent %j, gold %j → %s (%s)', (parent, gold, boundary, reason) => {
    expect(decideBoundary(v(parent), v(gold), false)).toEqual({ boundary, reason, observed: boundary });
  });

  it('never verifies a draft, but keeps what the runs showed', () => {
    expect(decideBoundary(v(['good']), v(['bad']), true)).toEqual({ boundary: 'nonreproducible', reason: 'draft', observed: 'verified' });
    expect(decideBoundary(v(['bad']), v(['bad']), true)).toEqual({ boundary: 'not-a-boundary', reason: 'draft', observed: 'not-a-boundary' });
  });
});
