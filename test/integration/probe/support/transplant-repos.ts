/** Generated repositories for transplanted-test probes: a regression, its fix and the fix's tests. */
import { execa } from 'execa';
import { compileGlobs, DEFAULT_TEST_GLOBS } from '../../../../src/pairs/globs.js';
import { toAnyProbeSpec, type TransplantedSpec } from '../../../../src/probe/spec.js';
import { makeRepo, tempDir } from '../../../support/make-repo.js';

export const isTest = compileGlobs(DEFAULT_TEST_GLOBS);

export interface RegressionRepo {
  readonly gitDir: string;
  readonly workRoot: string;
  /** The commit that introduced the regression. */
  readonly gold: string;
  /** The fixing commit. */
  readonly fix: string;
}

/**
 * History: `base` files, a docs commit (gold's parent), `gold` changes (the regression), an
 * optional `between` commit, then the `fix` (source repaired and test files changed).
 */
export async function regressionRepo(spec: {
  base: Record<string, string>;
  gold: Record<string, string | null>;
  between?: Record<string, string | null>;
  fix: Record<string, string | null>;
}): Promise<RegressionRepo> {
  const repo = await makeRepo();
  await repo.commit('start', { files: spec.base });
  await repo.commit('docs', { files: { 'README.md': 'docs\n' } });
  const gold = await repo.commit('change the behaviour', { files: spec.gold });
  if (spec.between) await repo.commit('meanwhile', { files: spec.between });
  const fix = await repo.commit('fix the regression', { files: spec.fix });
  return { gitDir: await repo.bareMirror(), workRoot: await tempDir('r2v-work-'), gold, fix };
}

export function transplanted(fix: string, tests: string[], extra: Partial<Record<keyof TransplantedSpec, unknown>> = {}): TransplantedSpec {
  return toAnyProbeSpec({ kind: 'transplanted', fix: { sha: fix, pull: null }, tests, test_command: 'node --test {tests}', timeout_s: 60, repeats: 2, ...extra }, 'spec') as TransplantedSpec;
}

/** Whether pytest runs here (the CI script installs it when the machine lacks it). */
export async function pytestVersion(): Promise<string> {
  const r = await execa('python3', ['-m', 'pytest', '--version'], { reject: false });
  if (r.exitCode !== 0) throw new Error('pytest is not installed for python3: run `python3 -m pip install pytest` (.ci/run does it)');
  return String(r.stdout || r.stderr).trim();
}

// --- a small Node library -------------------------------------------------------------------

export const SLUG_GOOD = `function slugify(s) {
  return String(s).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}
module.exports = { slugify };
`;
export const SLUG_BAD = SLUG_GOOD.replace(".replace(/^-+|-+$/g, '')", ".replace(/^-+/, '')");

export const SLUG_TEST = `const test = require('node:test');
const assert = require('node:assert');
const { slugify } = require('../lib/slug');
test('no trailing dash', () => {
  assert.strictEqual(slugify('Hello, World!'), 'hello-world');
});
`;

export const BASIC_TEST = `const test = require('node:test');
const assert = require('node:assert');
const { slugify } = require('../lib/slug');
test('lower case', () => {
  assert.strictEqual(slugify('AB'), 'ab');
});
`;

// --- a small Python library -----------------------------------------------------------------

export const PY_GOOD = `def mean(xs):
    return sum(xs) / len(xs) if xs else 0.0
`;
export const PY_BAD = `def mean(xs):
    return sum(xs) / len(xs)
`;
export const PY_TEST = `from calc import mean


def test_empty_mean_is_zero():
    assert mean([]) == 0.0


def test_mean():
    assert mean([1, 2, 3]) == 2
`;
