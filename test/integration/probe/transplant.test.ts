import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixTestChanges, replayTransplanted } from '../../../src/probe/transplant.js';
import { tempDir } from '../../support/make-repo.js';
import { listedWorktrees } from './support/repos.js';
import {
  BASIC_TEST, PY_BAD, PY_GOOD, PY_TEST, SLUG_BAD, SLUG_GOOD, SLUG_TEST, isTest, pytestVersion, regressionRepo, transplanted,
} from './support/transplant-repos.js';

const applicable = <T extends { applicable: boolean }>(o: T): Extract<T, { applicable: true }> => {
  expect(o.applicable).toBe(true);
  return o as Extract<T, { applicable: true }>;
};

describe('transplanted-test probe (Node, node --test)', () => {
  it('lists the fix\'s added and modified test files without renames', async () => {
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD, 'test/basic.test.js': BASIC_TEST, 'test/old.test.js': BASIC_TEST },
      gold: { 'lib/slug.js': SLUG_BAD },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/slug.test.js': SLUG_TEST, 'test/basic.test.js': `${BASIC_TEST}// more\n`, 'test/old.test.js': null, 'docs/x.md': 'x\n' },
    });
    const { changes } = await fixTestChanges(r.gitDir, r.fix, isTest);
    expect(changes).toEqual([{ path: 'test/basic.test.js', status: 'modified' }, { path: 'test/slug.test.js', status: 'added' }]);
  });

  it('verifies a regression with a test file the fix added (absent at gold): passes at the parent, fails at gold', async () => {
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD, 'test/basic.test.js': BASIC_TEST },
      gold: { 'lib/slug.js': SLUG_BAD },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/slug.test.js': SLUG_TEST },
    });
    const out = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: transplanted(r.fix, ['test/slug.test.js']), workRoot: r.workRoot }));
    expect(out.result.parent.runs.map((x) => x.classification)).toEqual(['good', 'good']);
    expect(out.result.gold.runs.map((x) => x.classification)).toEqual(['bad', 'bad']);
    expect(out.result.boundary).toBe('verified');
    expect(out.result.reason).toBe('parent-good-gold-bad');
    expect(out.result.gold.runs[0]!.command).toBe('node --test test/slug.test.js');
    expect(out.result.gold.runs[0]!.why).toMatch(/^the tests failed \(exit 1\)/);
    expect(await listedWorktrees(r.gitDir)).toEqual([]);
  });

  it('applies the fix\'s change to a modified test file and verifies', async () => {
    const extended = `${BASIC_TEST}test('trailing punctuation', () => {\n  assert.strictEqual(slugify('Hi!'), 'hi');\n});\n`;
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD, 'test/basic.test.js': BASIC_TEST },
      gold: { 'lib/slug.js': SLUG_BAD },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/basic.test.js': extended },
    });
    const out = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: transplanted(r.fix, ['test/basic.test.js']), workRoot: r.workRoot }));
    expect(out.result.boundary).toBe('verified');
  });

  it('is not-applicable when a test file the fix modified does not exist at gold, and runs nothing', async () => {
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD },
      gold: { 'lib/slug.js': SLUG_BAD },
      between: { 'test/basic.test.js': BASIC_TEST },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/basic.test.js': `${BASIC_TEST}${SLUG_TEST.split('\n').slice(3).join('\n')}` },
    });
    const out = await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: transplanted(r.fix, ['test/basic.test.js']), workRoot: r.workRoot });
    expect(out.applicable).toBe(false);
    if (out.applicable) return;
    expect(out.notApplicable.cause).toBe('test-file-missing');
    expect(out.notApplicable.state).toBe('parent');
    expect(out.notApplicable.detail).toMatch(/modifies test\/basic\.test\.js, but it does not exist at parent [0-9a-f]{12}/);
    expect(out.goldSha).toBe(r.gold);
    expect(readdirSync(r.workRoot).filter((n) => n.startsWith('r2v-probe-wt-'))).toEqual([]);
  });

  it('is not-applicable when the fix\'s change to a test file does not apply at a state', async () => {
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD, 'test/basic.test.js': BASIC_TEST },
      gold: { 'lib/slug.js': SLUG_BAD },
      between: { 'test/basic.test.js': BASIC_TEST.replace("'AB'", "'ABC'").replace("'ab'", "'abc'") },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/basic.test.js': BASIC_TEST.replace("'AB'", "'XYZ'").replace("'ab'", "'xyz'") },
    });
    const out = await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: transplanted(r.fix, ['test/basic.test.js']), workRoot: r.workRoot });
    expect(out.applicable).toBe(false);
    if (out.applicable) return;
    expect(out.notApplicable.cause).toBe('patch-does-not-apply');
    expect(out.notApplicable.detail).toMatch(/the fix's change to test\/basic\.test\.js does not apply at parent/);
  });

  it('says not-a-boundary when the fix\'s test also fails at the parent', async () => {
    const featureTest = SLUG_TEST.replace("slugify('Hello, World!'), 'hello-world'", "slugify('a b', '_'), 'a_b'");
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD },
      gold: { 'lib/slug.js': SLUG_BAD },
      fix: { 'lib/slug.js': SLUG_GOOD.replace('function slugify(s) {', "function slugify(s, sep = '-') {").replace("'-')", 'sep)'), 'test/sep.test.js': featureTest },
    });
    const out = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: transplanted(r.fix, ['test/sep.test.js']), workRoot: r.workRoot }));
    expect(out.result.boundary).toBe('not-a-boundary');
    expect(out.result.reason).toBe('bad-at-both');
  });

  it('says flaky when the fix\'s test disagrees with itself across repeats', async () => {
    // The test fails every second run (a counter in the state's HOME, shared by its repeats).
    const flaky = `const test = require('node:test');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { slugify } = require('../lib/slug');
test('trailing dash, sometimes', () => {
  const f = path.join(os.homedir(), 'runs');
  const n = (fs.existsSync(f) ? Number(fs.readFileSync(f, 'utf8')) : 0) + 1;
  fs.writeFileSync(f, String(n));
  if (n % 2 === 0) throw new Error('timing-dependent failure');
  if (slugify('Hi!') !== 'hi') throw new Error('trailing dash');
});
`;
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD },
      gold: { 'lib/slug.js': SLUG_BAD },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/flaky.test.js': flaky },
    });
    const out = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: transplanted(r.fix, ['test/flaky.test.js'], { repeats: 3 }), workRoot: r.workRoot }));
    expect(out.result.parent.runs.map((x) => x.classification)).toEqual(['good', 'bad', 'good']);
    expect(out.result.boundary).toBe('flaky');
    expect(out.result.reason).toBe('flaky-parent');
  });

  it('runs setup once per lockfile digest: the second state restores the cached paths', async () => {
    const count = join(await tempDir('r2v-count-'), 'setups');
    const usesDep = SLUG_TEST.replace("const { slugify } = require('../lib/slug');", "const { slugify } = require('../lib/slug');\nrequire('node:fs').accessSync('deps/installed');");
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD, 'package-lock.json': '{"lockfileVersion": 3}\n' },
      gold: { 'lib/slug.js': SLUG_BAD },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/slug.test.js': usesDep },
    });
    const cacheDir = join(r.workRoot, 'cache');
    mkdirSync(cacheDir);
    const spec = transplanted(r.fix, ['test/slug.test.js'], {
      setup: ['mkdir -p deps && echo ok > deps/installed && echo ran >> "$COUNT_FILE"'],
      setup_cache: ['deps'],
      env: { COUNT_FILE: count },
    });
    const first = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec, workRoot: r.workRoot, setupCache: { dir: cacheDir, repo: 'acme/slug' } }));
    expect(first.result.boundary).toBe('verified');
    expect(first.result.parent.setup[0]!.cachedKey).toBeUndefined();
    expect(first.result.gold.setup[0]!.cachedKey).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(count, 'utf8')).toBe('ran\n');
    // A second case of the same repository installs nothing.
    const again = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec, workRoot: r.workRoot, setupCache: { dir: cacheDir, repo: 'acme/slug' } }));
    expect(again.result.boundary).toBe('verified');
    expect(readFileSync(count, 'utf8')).toBe('ran\n');
    // Without the cache, each state installs.
    const off = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec, workRoot: r.workRoot }));
    expect(off.result.boundary).toBe('verified');
    expect(readFileSync(count, 'utf8')).toBe('ran\nran\nran\n');
  });

  it('fails setup as setup-failed: nonreproducible, the tests never run', async () => {
    const r = await regressionRepo({
      base: { 'lib/slug.js': SLUG_GOOD },
      gold: { 'lib/slug.js': SLUG_BAD },
      fix: { 'lib/slug.js': SLUG_GOOD, 'test/slug.test.js': SLUG_TEST },
    });
    const out = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: transplanted(r.fix, ['test/slug.test.js'], { setup: ['exit 3'] }), workRoot: r.workRoot }));
    expect(out.result.boundary).toBe('nonreproducible');
    expect(out.result.reason).toBe('parent-setup-failed');
    expect(out.result.parent.runs.every((x) => !x.executed)).toBe(true);
  });
});

describe('transplanted-test probe (Python, pytest)', () => {
  beforeAll(async () => {
    expect(await pytestVersion()).toMatch(/pytest \d+/);
  });

  it('verifies with a test module the fix added, through the exit code and through a JUnit report', async () => {
    const r = await regressionRepo({
      base: { 'calc.py': PY_GOOD, 'pyproject.toml': '[project]\nname = "calc"\nversion = "1.0"\n' },
      gold: { 'calc.py': PY_BAD },
      fix: { 'calc.py': PY_GOOD, 'tests/test_calc.py': PY_TEST },
    });
    const plain = transplanted(r.fix, ['tests/test_calc.py'], { test_command: 'python3 -m pytest -q -p no:cacheprovider {tests}' });
    const a = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: plain, workRoot: r.workRoot }));
    expect(a.result.boundary).toBe('verified');
    expect(a.result.gold.runs[0]!.exitCode).toBe(1);

    const junit = transplanted(r.fix, ['tests/test_calc.py'], { test_command: 'python3 -m pytest -q -p no:cacheprovider --junitxml={junit} {tests}' });
    const b = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec: junit, workRoot: r.workRoot }));
    expect(b.result.boundary).toBe('verified');
    expect(b.result.parent.runs[0]!.why).toBe('2 test cases passed (exit 0)');
    expect(b.result.gold.runs[0]!.why).toMatch(/^tests failed: tests\.test_calc::test_empty_mean_is_zero|^tests failed: .*test_empty_mean_is_zero/);
  });

  it('is not-a-boundary when the fix\'s test fails at the parent too', async () => {
    const r = await regressionRepo({
      base: { 'calc.py': PY_BAD },
      gold: { 'calc.py': `${PY_BAD}\n# tidy\n` },
      fix: { 'calc.py': PY_GOOD, 'tests/test_calc.py': PY_TEST },
    });
    const spec = transplanted(r.fix, ['tests/test_calc.py'], { test_command: 'python3 -m pytest -q -p no:cacheprovider {tests}' });
    const out = applicable(await replayTransplanted({ gitDir: r.gitDir, gold: r.gold, spec, workRoot: r.workRoot }));
    expect(out.result.boundary).toBe('not-a-boundary');
    expect(out.result.reason).toBe('bad-at-both');
  });
});
