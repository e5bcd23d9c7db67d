import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Config } from '../../../src/config.js';
import { PairGit } from '../../../src/pairs/git.js';
import { compileGlobs, DEFAULT_TEST_GLOBS } from '../../../src/pairs/globs.js';
import { validatePair } from '../../../src/pairs/validate.js';
import { openStore } from '../../../src/store/db.js';
import { buildWorld } from './world.js';

/** A runner that writes a JUnit report: per test file, `runs` (its exit code) and `loads` (always passes). */
const JUNIT_RUNNER = `out="$1"; shift
{ echo '<testsuites>'
for t in "$@"; do
  if sh "$t" >/dev/null 2>&1; then r=''; else r='<failure message="exit"/>'; fi
  echo "<testsuite name=\\"$t\\" file=\\"$t\\"><testcase name=\\"runs\\">$r</testcase><testcase name=\\"loads\\"/></testsuite>"
done
echo '</testsuites>'; } > "$out"
`;

describe('JUnit result reader', () => {
  it('grades finer test ids from the report written to {junit}, leaving the repository untouched', async () => {
    const store = openStore(':memory:');
    const world = await buildWorld(store, { only: [11, 12] });
    await world.repo.checkout('main');
    const base = await world.repo.commit('junit runner', { files: { 'run-junit.sh': JUNIT_RUNNER } });
    // Re-point both PRs at branches that contain the runner.
    const heads: Record<number, string> = {};
    for (const n of [11, 12]) {
      await world.repo.checkout(`j-${n}`, { create: true, from: `pr-${n}` });
      heads[n] = await world.repo.merge('main', { message: `merge main into ${n}` });
      await world.repo.checkout('main');
    }
    const objectsBefore = await world.repo.git(['count-objects', '-v']);
    const git = await PairGit.open(join(world.repo.dir, '.git'));
    try {
      const v = await validatePair(git, { number: 11, baseSha: base, headSha: heads[11]! }, { number: 12, baseSha: base, headSha: heads[12]! }, {
        isTest: compileGlobs(DEFAULT_TEST_GLOBS),
        base: Config.parse({}).pairs.base,
        template: 'sh run-junit.sh {junit} {tests}',
        repeats: 2,
        timeoutMs: 20_000,
      });
      expect(v.status).toBe('valid');
      expect(v.members.map((m) => [m.split.number, m.failToPass])).toEqual([
        [11, ['test/one.test.sh::runs']],
        [12, ['test/two.test.sh::runs']],
      ]);
      const gold = v.conditions.find((c) => c.condition === 'gold')!;
      expect(gold.runs.map((r) => `${r.repeat}:${r.testId}:${r.outcome}`).sort()).toEqual([
        '0:test/one.test.sh::loads:pass',
        '0:test/one.test.sh::runs:pass',
        '0:test/two.test.sh::loads:pass',
        '0:test/two.test.sh::runs:pass',
        '1:test/one.test.sh::loads:pass',
        '1:test/one.test.sh::runs:pass',
        '1:test/two.test.sh::loads:pass',
        '1:test/two.test.sh::runs:pass',
      ]);
    } finally {
      await git.close();
    }
    // Patched trees, commits and merge results went to the scratch area, never into the repository.
    expect(await world.repo.git(['count-objects', '-v'])).toBe(objectsBefore);
    expect(await world.repo.git(['status', '--porcelain'])).toBe('');
    store.close();
  });
});
