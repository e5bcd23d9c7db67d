import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, ValidationError } from '../../../src/errors.js';
import { formatProbeSpec, loadProbeSpec, parseProbeSpec } from '../../../src/probe/spec.js';
import { tempDir } from '../../support/make-repo.js';

describe('probe spec', () => {
  it('applies the defaults to a minimal YAML spec', () => {
    expect(parseProbeSpec('trigger: make check\nsymptom:\n  exit_code: 2\n', 'p.yaml')).toEqual({
      setup: [],
      setup_cache: [],
      trigger: 'make check',
      symptom: { exit_code: 2 },
      exercised: {},
      timeout_s: 60,
      repeats: 3,
      env: {},
      network: false,
      draft: false,
    });
  });

  it('reads JSON by extension and keeps every field', () => {
    const spec = parseProbeSpec(
      JSON.stringify({
        setup: ['npm ci'],
        trigger: 'node t.js',
        symptom: { exit_code: [1, 2], signal: 'SEGV', stdout_regex: '^boom$', junit: { report: 'out/r.xml', failing_test: 'A#b' } },
        exercised: { exit_codes: [0, 1], marker: 'RUN' },
        timeout_s: 1.5,
        repeats: 5,
        env: { A_B: '1' },
        network: true,
        draft: true,
      }),
      'p.json',
    );
    expect(spec.symptom).toEqual({ exit_code: [1, 2], signal: 'SIGSEGV', stdout_regex: '^boom$', junit: { report: 'out/r.xml', failing_test: 'A#b' } });
    expect(spec).toMatchObject({ timeout_s: 1.5, repeats: 5, env: { A_B: '1' }, network: true, draft: true });
  });

  it.each([
    ['symptom: {exit_code: 1}\n', 'p.yaml: trigger: required'],
    ['trigger: x\n', 'p.yaml: symptom: required'],
    ['trigger: x\nsymptom: {}\n', 'p.yaml: symptom: needs at least one predicate'],
    ['trigger: x\nsymptom: {exit_code: 1}\nrepeats: 0\n', 'p.yaml: repeats: '],
    ['trigger: x\nsymptom: {exit_code: 1}\ntimeout_s: -1\n', 'p.yaml: timeout_s: '],
    ['trigger: x\nsymptom: {exit_code: 300}\n', 'p.yaml: symptom.exit_code: '],
    ['trigger: x\nsymptom: {stderr_regex: "(unclosed"}\n', 'p.yaml: symptom.stderr_regex: invalid regular expression'],
    ['trigger: x\nsymptom: {junit: {report: /abs/r.xml, failing_test: t}}\n', 'p.yaml: symptom.junit.report: must be a path relative to the checkout'],
    ['trigger: x\nsymptom: {junit: {report: ../r.xml, failing_test: t}}\n', 'p.yaml: symptom.junit.report: must be a path relative to the checkout'],
    ['trigger: x\nsymptom: {exit_code: 1}\nsetup: make\n', 'p.yaml: setup: '],
    ['trigger: x\nsymptom: {exit_code: 1}\nenv: {"BAD-NAME": "1"}\n', 'p.yaml: env.BAD-NAME: must be an environment variable name'],
    ['trigger: x\nsymptom: {exit_code: 1}\nnetwork: "yes"\n', 'p.yaml: network: '],
    ['trigger: 3\nsymptom: {exit_code: 1}\n', 'p.yaml: trigger: Invalid input: expected string, received number'],
    ['trigger: x\nsymptom: exit 1\n', 'p.yaml: symptom: Invalid input: expected object, received string'],
    ['trigger: x\nsymptom: {exit_code: 1}\ntimeout: 5\n', 'p.yaml: timeout: unknown field'],
    ['trigger: x\nsymptom: {exit_code: 1, stdout: a}\n', 'p.yaml: symptom.stdout: unknown field'],
    ['- a\n- b\n', 'p.yaml: (root): must be a mapping of probe fields'],
    ['trigger: x\ntrigger: y\nsymptom: {exit_code: 1}\n', 'p.yaml:2:1: invalid YAML: '],
  ])('rejects %j with a message naming the file and field', (text, message) => {
    let error: unknown;
    try {
      parseProbeSpec(text, 'p.yaml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });

  it('rejects malformed JSON with the file name', () => {
    expect(() => parseProbeSpec('{"trigger": ', 'p.json')).toThrow(/^p\.json: invalid JSON: /);
  });

  it('loads from a file and reports a missing file as a usage error', async () => {
    const dir = await tempDir('r2v-spec-');
    const path = join(dir, 'case.yml');
    writeFileSync(path, 'trigger: ./run\nsymptom: {stderr_contains: boom}\n');
    expect(loadProbeSpec(path).trigger).toBe('./run');
    expect(() => loadProbeSpec(join(dir, 'missing.yaml'))).toThrow(UsageError);
    expect(() => loadProbeSpec(join(dir, 'missing.yaml'))).toThrow(`${join(dir, 'missing.yaml')}: cannot read probe spec (file not found)`);
  });

  it('writes YAML that reads back to the same spec, with a comment header', () => {
    const spec = parseProbeSpec('trigger: "echo \'a: b\'"\nsymptom: {stdout_contains: "a: b"}\ndraft: true\n', 'p.yaml');
    const text = formatProbeSpec(spec, 'line one\nline two');
    expect(text.startsWith('# line one\n# line two\n')).toBe(true);
    expect(parseProbeSpec(text, 'again.yaml')).toEqual(spec);
  });
});
