import { describe, expect, it } from 'vitest';
import { draftProbeWithKind, HUMAN_TRIGGER } from '../../../src/probe/draft.js';
import { chooseFix } from '../../../src/probe/fix-link.js';
import { describeProposal, proposeTestCommand } from '../../../src/probe/presets.js';
import { classifyTestRun } from '../../../src/probe/transplant.js';
import type { LinkRow, PullRow } from '../../../src/store/tables/sources.js';

const REPORT = '2024-03-01T12:00:00Z';
const pullRow = (number: number, mergedAt: string | null): PullRow => ({
  repo: 'a/b', number, title: 't', body: '', author: 'x', state: 'closed', draft: false, baseRef: 'main', baseSha: 'b'.repeat(40), headRef: 'h',
  headSha: 'c'.repeat(40), mergeCommitSha: mergedAt ? String(number).padStart(40, '0') : null, createdAt: REPORT, mergedAt, htmlUrl: 'u',
  commitShas: [], commitMessages: [], source: 'test',
});
const linkRow = (issue: number, pull: number, how: string): LinkRow => ({ repo: 'a/b', issue, pull, how, evidence: `${how} #${issue}` });

describe('chooseFix (the fixing PR of a regression report)', () => {
  const pulls = new Map([[10, pullRow(10, '2024-03-02T00:00:00Z')], [11, pullRow(11, '2024-03-03T00:00:00Z')], [12, pullRow(12, '2024-02-01T00:00:00Z')], [13, pullRow(13, null)]]);
  const pullOf = (n: number) => pulls.get(n);

  it.each([
    ['one closing PR merged after the report', [linkRow(7, 10, 'keyword-body')], { status: 'found', pull: 10 }],
    ['a closing PR outranks a PR that only references the issue', [linkRow(7, 10, 'timeline'), linkRow(7, 11, 'closing-references')], { status: 'found', pull: 11 }],
    ['a lone reference is taken', [linkRow(7, 11, 'timeline')], { status: 'found', pull: 11 }],
    ['two closing PRs: none, and why', [linkRow(7, 10, 'keyword-title'), linkRow(7, 11, 'import')], { status: 'none', reason: 'fix-ambiguous', detail: 'several merged pull requests close #7 after the report: #10, #11' }],
    ['two references: none', [linkRow(7, 10, 'timeline'), linkRow(7, 11, 'timeline')], { status: 'none', reason: 'fix-ambiguous', detail: 'several merged pull requests reference #7 after the report: #10, #11' }],
    ['merged before the report, unmerged, unknown', [linkRow(7, 12, 'keyword-body'), linkRow(7, 13, 'keyword-body'), linkRow(7, 14, 'keyword-body')],
      { status: 'none', reason: 'no-linked-fix', detail: 'no merged pull request closes or references #7 after the report (#12 merged before the report; #13 not merged; #14 not stored)' }],
    ['links of other issues do not count', [linkRow(8, 10, 'keyword-body')], { status: 'none', reason: 'no-linked-fix' }],
  ])('%s', (_label, links, expected) => {
    expect(chooseFix(7, REPORT, links, pullOf)).toMatchObject(expected);
  });

  it('keeps every link of the chosen PR as evidence, with its merge commit', () => {
    const fix = chooseFix(7, REPORT, [linkRow(7, 10, 'timeline'), linkRow(7, 10, 'keyword-body')], pullOf);
    expect(fix).toEqual({ status: 'found', pull: 10, sha: pulls.get(10)!.mergeCommitSha, mergedAt: '2024-03-02T00:00:00Z', links: [
      { how: 'keyword-body', evidence: 'keyword-body #7' }, { how: 'timeline', evidence: 'timeline #7' },
    ] });
  });
});

describe('test-command presets', () => {
  it.each([
    [['pyproject.toml', 'src'], 'python3 -m pytest -q {tests}', 'pyproject.toml'],
    [['setup.cfg'], 'python3 -m pytest -q {tests}', 'setup.cfg'],
    [['tox.ini'], 'python3 -m pytest -q {tests}', 'tox.ini'],
    [['package.json', 'vitest.config.ts'], 'npx vitest run {tests}', 'vitest.config.ts'],
    [['package.json', 'jest.config.js'], 'npx jest {tests}', 'jest.config.js'],
    [['package.json'], 'npm test -- {tests}', 'package.json'],
    [['go.mod', 'Makefile'], 'go test ./...', 'go.mod'],
    [['Cargo.toml'], 'cargo test', 'Cargo.toml'],
    [['CMakeLists.txt', 'Makefile'], 'ctest --test-dir build --output-on-failure', 'CMakeLists.txt'],
    [['Makefile'], 'make check', 'Makefile'],
  ])('%j → %s', (names, command, basis) => {
    expect(proposeTestCommand(names)).toMatchObject({ command, basis });
  });

  it('proposes nothing for an unknown layout, and says so', () => {
    expect(proposeTestCommand(['README.md'])).toBeNull();
    expect(describeProposal(null)).toBe('no test command detected from the layout; set repos[].test_command');
    expect(describeProposal(proposeTestCommand(['go.mod']))).toMatch(/not run until written into repos\[\]\.test_command\): go test \.\/\.\.\. \(it runs every test; a transplanted probe needs a command with \{tests\}\)/);
  });
});

describe('classifyTestRun', () => {
  const run = (exitCode: number | null, extra: { signal?: string; timedOut?: boolean } = {}) => ({ exitCode, signal: extra.signal ?? null, timedOut: extra.timedOut ?? false });
  const junit = (cases: string) => `<testsuite name="s">${cases}</testsuite>`;
  it.each([
    ['pass', run(0), undefined, 'good'],
    ['fail', run(1), undefined, 'bad'],
    ['a crash', run(null, { signal: 'SIGSEGV' }), undefined, 'bad'],
    ['a timeout', run(null, { timedOut: true, signal: 'SIGTERM' }), undefined, 'timeout'],
    ['a missing command', run(127), undefined, 'not-exercised'],
    ['no JUnit report', run(1), null, 'not-exercised'],
    ['an empty JUnit report', run(0), junit(''), 'not-exercised'],
    ['a failed JUnit case', run(1), junit('<testcase classname="t" name="a"><failure/></testcase><testcase classname="t" name="b"/>'), 'bad'],
    ['every JUnit case passed', run(0), junit('<testcase classname="t" name="a"/>'), 'good'],
    ['a failing exit with every JUnit case passed', run(2), junit('<testcase classname="t" name="a"/>'), 'bad'],
  ])('%s', (_label, r, xml, expected) => {
    expect(classifyTestRun(r, xml).classification).toBe(expected);
  });
});

describe('drafts from a reproduction script', () => {
  const report = [
    'Summing an empty list crashes.',
    '',
    '```js',
    "const { sum } = require('./src/lib/math');",
    'console.log(sum([]));',
    '```',
    '',
    'Output:',
    '```',
    'TypeError: Reduce of empty array with no initial value',
    '    at Array.reduce (<anonymous>)',
    '```',
  ].join('\n');

  it('feeds the script to its interpreter from a saved file; the quoted error is the stderr symptom', () => {
    const d = draftProbeWithKind(report, (ext) => `/data/probes/drafts/case.repro.${ext}`);
    expect(d).toMatchObject({
      kind: 'script',
      needsHuman: null,
      spec: { draft: true, trigger: 'node - < /data/probes/drafts/case.repro.js', symptom: { stderr_contains: 'TypeError: Reduce of empty array with no initial value' } },
      script: { path: '/data/probes/drafts/case.repro.js', body: "const { sum } = require('./src/lib/math');\nconsole.log(sum([]));\n" },
    });
  });

  it('takes the error from a back-quoted span too, and runs Python with python3', () => {
    const d = draftProbeWithKind('```python\nfrom calc import mean\nprint(mean([]))\n```\nIt raises `ZeroDivisionError: division by zero`.', (ext) => `/d/r.${ext}`);
    expect(d?.spec).toMatchObject({ trigger: 'python3 - < /d/r.py', symptom: { stderr_contains: 'ZeroDivisionError: division by zero' } });
  });

  it('drafts nothing from a script without quoted error text, or in a language it does not know', () => {
    expect(draftProbeWithKind('```js\nconsole.log(1)\n```\nIt prints the wrong number.')).toBeNull();
    expect(draftProbeWithKind('```ruby\nputs 1\n```\n```\nNoMethodError: undefined method\n```')).toBeNull();
  });

  it('never puts a save path with unsafe characters into the trigger', () => {
    const d = draftProbeWithKind(report, (ext) => `/data dir/$(x).${ext}`);
    expect(d?.spec.trigger).toBe(HUMAN_TRIGGER);
    expect(d?.needsHuman).toMatch(/outside the safe set/);
  });
});
