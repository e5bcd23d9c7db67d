import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/db.js';
import { runCliCaptured as cli } from '../../support/cli.js';
import { tempDir } from '../../support/make-repo.js';
import { BUILD_OK, CHECK, LIB_BAD, LIB_GOOD, probeRepo } from './support/repos.js';

const SPEC = `setup: ["sh build.sh"]
trigger: sh check.sh
symptom: { stderr_contains: "wrong sum" }
exercised: { marker: "checking sum" }
timeout_s: 5
repeats: 3
`;

describe('r2v probe (standalone)', () => {
  it('replays a spec against a git directory and prints the JSON result', async () => {
    const r = await probeRepo([{ 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK }, { 'lib.sh': LIB_BAD }]);
    const cwd = await tempDir();
    writeFileSync(join(cwd, 'spec.yaml'), SPEC);
    const res = await cli(['probe', '--git-dir', r.gitDir, '--gold', r.shas[1]!, '--spec', 'spec.yaml', '--repeats', '2', '--work-dir', r.workRoot, '--json'], cwd);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const json = JSON.parse(res.stdout) as Record<string, any>;
    expect(json.boundary).toBe('verified');
    expect(json.parent.sha).toBe(r.shas[0]);
    expect(json.parent.verdict).toBe('good');
    expect(json.gold).toMatchObject({ sha: r.shas[1], verdict: 'bad' });
    expect(json.gold.runs).toHaveLength(2);
    expect(json.gold.runs[0]).toMatchObject({ classification: 'bad', exitCode: 1, stderrTail: 'wrong sum: 5\n' });
  });

  it('prints the JSON on stdout and the per-run table on stderr without --json', async () => {
    const r = await probeRepo([{ 'lib.sh': LIB_GOOD, 'build.sh': BUILD_OK, 'check.sh': CHECK }, { 'lib.sh': LIB_BAD }]);
    const cwd = await tempDir();
    writeFileSync(join(cwd, 'spec.yaml'), SPEC);
    const res = await cli(['probe', '--git-dir', r.gitDir, '--gold', r.shas[1]!, '--spec', 'spec.yaml', '--repeats', '1', '--work-dir', r.workRoot], cwd);
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { boundary: string }).boundary).toBe('verified');
    const lines = res.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^state\s+phase\s+#\s+class\s+exit\s+ms\s+net\s+why$/);
    expect(lines.filter((l) => /^gold\s+trigger\s+1\s+bad\s+1\s/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /^parent\s+trigger\s+1\s+good\s+0\s/.test(l))).toHaveLength(1);
    expect(lines.at(-1)).toBe('boundary: verified (parent-good-gold-bad)');
  });

  it.each([
    [['probe'], 'r2v: give --case ID, or --git-dir DIR --gold SHA --spec FILE'],
    [['probe', '--case', 'x', '--git-dir', '.'], 'r2v: --case cannot be combined with --git-dir, --gold or --spec'],
    [['probe', '--git-dir', '.', '--gold', 'abc'], 'r2v: standalone probe needs --spec'],
    [['probe', '--git-dir', 'nowhere', '--gold', 'abc', '--spec', 'spec.yaml'], 'r2v: --git-dir nowhere: directory not found'],
    [['probe', '--git-dir', '.', '--gold', 'abc', '--spec', 'bad.yaml'], 'r2v: '],
    [['probe', '--git-dir', '.', '--gold', 'abc', '--spec', 'missing.yaml'], 'r2v: '],
  ])('rejects %j with a one-line error and exit code 2', async (argv, prefix) => {
    const cwd = await tempDir();
    writeFileSync(join(cwd, 'spec.yaml'), SPEC);
    writeFileSync(join(cwd, 'bad.yaml'), 'trigger: x\n');
    const res = await cli(argv, cwd);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.startsWith(prefix)).toBe(true);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    if (argv.includes('bad.yaml')) expect(res.stderr).toContain(`${join(cwd, 'bad.yaml')}: symptom: required`);
    if (argv.includes('missing.yaml')) expect(res.stderr).toContain('missing.yaml: cannot read probe spec (file not found)');
  });

  it('rejects a gold that is not a commit, and a bad --repeats', async () => {
    const r = await probeRepo([{ 'a.txt': 'a\n' }, { 'a.txt': 'b\n' }]);
    const cwd = await tempDir();
    writeFileSync(join(cwd, 'spec.yaml'), SPEC);
    const bad = await cli(['probe', '--git-dir', r.gitDir, '--gold', 'deadbeef', '--spec', 'spec.yaml'], cwd);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`r2v: --gold deadbeef: not a commit in ${r.gitDir}\n`);
    const repeats = await cli(['probe', '--git-dir', r.gitDir, '--gold', r.shas[1]!, '--spec', 'spec.yaml', '--repeats', 'two'], cwd);
    expect(repeats.code).toBe(2);
    expect(repeats.stderr).toContain('--repeats two: must be an integer from 1 to 100');
  });
});

describe('r2v probe --case', () => {
  async function seeded(): Promise<{ cwd: string; db: string }> {
    const cwd = await tempDir();
    const db = join(cwd, 'r2v.db');
    const store = openStore(db);
    const common = { command: 'sh check.sh', signal: null, timedOut: false, stdoutTail: 'checking sum\n', stdoutDigest: 'd1', stderrDigest: 'd2', networkIsolated: true, executed: true };
    store.probes.replaceCase(
      {
        caseId: 'acme_calc__7__0123abcd', repo: 'acme/calc', number: 7, status: 'replayed', specPath: '/data/probes/acme_calc__7__0123abcd.yaml',
        specDigest: 'abc', draft: false, draftPath: null, draftKind: null, goldSha: 'b'.repeat(40), parentSha: 'a'.repeat(40),
        parentVerdict: 'good', parentWhy: 'every run was exercised without the symptom', goldVerdict: 'bad', goldWhy: 'every run showed the symptom',
        boundary: 'verified', observed: 'verified', reason: 'parent-good-gold-bad', repeats: 1, networkIsolated: true, finishedAt: '2024-03-01T00:00:00Z',
      },
      [
        { ...common, caseId: 'acme_calc__7__0123abcd', state: 'gold', phase: 'trigger', idx: 0, sha: 'b'.repeat(40), exitCode: 1, durationMs: 12, stderrTail: 'wrong sum: 5\n', classification: 'bad', why: 'symptom: stderr contains "wrong sum"' },
        { ...common, caseId: 'acme_calc__7__0123abcd', state: 'parent', phase: 'trigger', idx: 0, sha: 'a'.repeat(40), exitCode: 0, durationMs: 9, stderrTail: '', classification: 'good', why: 'exercised, no symptom (exit code 0)' },
      ],
    );
    store.close();
    return { cwd, db };
  }

  it('prints the per-run table and the verdict', async () => {
    const { cwd, db } = await seeded();
    const res = await cli(['--db', db, 'probe', '--case', 'acme_calc__7__0123abcd'], cwd);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')).toEqual([
      'case acme_calc__7__0123abcd (acme/calc#7)',
      'spec /data/probes/acme_calc__7__0123abcd.yaml (command), 1 repeats',
      'state   phase    #  class  exit  ms  net  why',
      'parent  trigger  1  good   0     9   off  exercised, no symptom (exit code 0)',
      'gold    trigger  1  bad    1     12  off  symptom: stderr contains "wrong sum"',
      `parent ${'a'.repeat(40)}: good (every run was exercised without the symptom)`,
      `gold   ${'b'.repeat(40)}: bad (every run showed the symptom)`,
      'boundary: verified (parent-good-gold-bad)',
      '',
    ]);
  });

  it('prints a derived probe\'s fix and reason, and the proposed test command when none is configured', async () => {
    const cwd = await tempDir();
    const db = join(cwd, 'r2v.db');
    const store = openStore(db);
    const base = {
      repo: 'acme/calc', specDigest: null, draft: false, draftPath: null, draftKind: null, goldSha: 'b'.repeat(40), parentSha: 'a'.repeat(40),
      parentVerdict: null, parentWhy: null, goldVerdict: null, goldWhy: null, boundary: null, observed: null, repeats: null, networkIsolated: null,
      finishedAt: '2024-03-01T00:00:00Z',
    };
    const t = store.probes;
    t.replaceCase({
      ...base, caseId: 'acme_calc__8__0123abcd', number: 8, status: 'not-applicable', kind: 'transplanted', specPath: '/data/probes/derived/acme_calc__8__0123abcd.yaml',
      reason: 'not-applicable', detail: 'the fix 0123456789ab modifies test/a.test.js, but it does not exist at parent aaaaaaaaaaaa',
      fixSha: 'c'.repeat(40), fixPull: 31, tests: ['test/a.test.js'],
    }, []);
    t.replaceCase({
      ...base, caseId: 'acme_calc__9__0123abcd', number: 9, status: 'no-spec', specPath: null, reason: 'no-test-command',
      detail: 'the fix, pull request #32 (cccccccccccc), changes tests (test/b.test.js) but the repository has no test_command',
      fixSha: 'c'.repeat(40), fixPull: 32, proposedCommand: 'npm test -- {tests}',
    }, []);
    store.close();
    const na = await cli(['--db', db, 'probe', '--case', 'acme_calc__8__0123abcd'], cwd);
    expect(na.stdout.split('\n')).toEqual([
      'case acme_calc__8__0123abcd (acme/calc#8)',
      `fix: pull request #31, ${'c'.repeat(40)}; tests test/a.test.js`,
      'spec /data/probes/derived/acme_calc__8__0123abcd.yaml (transplanted)',
      'not-applicable: the fix 0123456789ab modifies test/a.test.js, but it does not exist at parent aaaaaaaaaaaa',
      'draft: nothing in the report to draft from',
      '',
    ]);
    const none = await cli(['--db', db, 'probe', '--case', 'acme_calc__9__0123abcd'], cwd);
    expect(none.stdout).toContain('proposed test command (not run until written into repos[].test_command): npm test -- {tests}\n');
    expect(none.stdout).toContain('no probe to run (no-test-command): the fix, pull request #32');
  });

  it('prints JSON with --json and fails clearly for an unknown case', async () => {
    const { cwd, db } = await seeded();
    const res = await cli(['--db', db, 'probe', '--case', 'acme_calc__7__0123abcd', '--json'], cwd);
    const json = JSON.parse(res.stdout) as { verdict: { boundary: string }; runs: { state: string }[] };
    expect(json.verdict.boundary).toBe('verified');
    expect(json.runs.map((r) => r.state)).toEqual(['parent', 'gold']);
    const missing = await cli(['--db', db, 'probe', '--case', 'nope'], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('r2v: --case nope: no probe record for this case (run: r2v run --stage probe)\n');
  });
});
