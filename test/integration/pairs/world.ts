/**
 * A generated repository with one pair of pull requests per scenario, each PR a real branch
 * (and refs/pull/N/head) with code and tests, and a real test command (`sh run-test.sh <test file>`, shell tests).
 * Scenarios use disjoint time spans, so only the intended PRs pair up (window_days 0).
 */
import { join } from 'node:path';
import { makeRepo, tempDir, type TestRepo } from '../../support/make-repo.js';
import { Config } from '../../../src/config.js';
import { createStageContext } from '../../../src/run/context.js';
import { silentLogger } from '../../../src/log.js';
import type { Store } from '../../../src/store/db.js';
import { Sources } from '../../../src/store/tables/sources.js';
import type { StageContext } from '../../../src/stages/types.js';

export const REPO = 'acme/widgets';

const filler = (tag: string): string => Array.from({ length: 12 }, (_, i) => `# ${tag} filler line ${i + 1}`).join('\n');

/** The main branch's files: one directory per scenario; shell code and tests, and one JavaScript pair. */
const BASE_FILES: Record<string, string> = {
  'run-test.sh': 'exec sh "$1"\n',
  'coupled/math.sh': `add() { echo $(($1 + $2)); }\n${filler('math')}\n# end of math\n`,
  'conflict/value.sh': 'VALUE=1\n',
  'bv/a.sh': `one() { echo 1; }\n${filler('bv')}\n# end of bv\n`,
  'comp/greet.sh': `NAME=world\n${filler('greet')}\ngreet() { echo "hi $NAME"; }\n`,
  'imp/a.js': `const b = require('./b.js');\nexports.a = () => b.b();\n`,
  'imp/b.js': `exports.b = () => 1;\n`,
  'flaky/x.sh': `X=1\n${filler('flaky')}\n# end of x\n`,
  'ctl_a/one.sh': 'one() { echo 0; }\n',
  'ctl_b/two.sh': 'two() { echo 0; }\n',
  'ctl_c/three.sh': 'three() { echo 0; }\n',
  'unrel/p.sh': 'P=1\n',
  'unrel/q.sh': 'Q=1\n',
  'README.md': 'widgets\n',
  'apf/x.sh': 'X=1\n',
  'nf_a/x.sh': 'X=1\n',
  'nf_b/y.sh': 'Y=1\n',
  'tc_a/a.sh': 'A=1\n',
  'tc_b/b.sh': 'B=1\n',
  'test/shared.test.sh': 'true\n',
};

const sh = (source: string, check: string): string => `. ./${source}\n${check}\n`;

interface PrSpec {
  number: number;
  files: Record<string, string>;
  /** Branch from the later main commit (default: the first). */
  fromLater?: boolean;
  day: number;
}

export interface World {
  repo: TestRepo;
  dataDir: string;
  counterDir: string;
  config: Config;
  heads: Record<number, string>;
  base0: string;
  base1: string;
}

const PRS: PrSpec[] = [
  // 1+2 valid coupled (same file, separate hunks); PR 2 branches from a later main commit.
  {
    number: 1,
    day: 1,
    files: {
      'coupled/math.sh': `add() { echo $(($1 + $2)); }\nmul() { echo $(($1 * $2)); }\n${filler('math')}\n# end of math\n`,
      'test/mul.test.sh': sh('coupled/math.sh', '[ "$(mul 2 3)" = 6 ]'),
    },
  },
  {
    number: 2,
    day: 1,
    fromLater: true,
    files: {
      'coupled/math.sh': `add() { echo $(($1 + $2)); }\n${filler('math')}\n# end of math\nsub() { echo $(($1 - $2)); }\n`,
      'test/sub.test.sh': sh('coupled/math.sh', '[ "$(sub 5 3)" = 2 ]'),
    },
  },
  // 3+4 textual conflict on the same line.
  { number: 3, day: 11, files: { 'conflict/value.sh': 'VALUE=2\n', 'test/v3.test.sh': sh('conflict/value.sh', '[ "$VALUE" = 2 ]') } },
  { number: 4, day: 11, files: { 'conflict/value.sh': 'VALUE=3\n', 'test/v4.test.sh': sh('conflict/value.sh', '[ "$VALUE" = 3 ]') } },
  // 5+6 base validity: PR 5's test passes without its code.
  {
    number: 5,
    day: 21,
    files: {
      'bv/a.sh': `one() { echo 1; }\ntwo() { echo 2; }\n${filler('bv')}\n# end of bv\n`,
      'test/bv5.test.sh': sh('bv/a.sh', '[ "$(one)" = 1 ]'),
    },
  },
  {
    number: 6,
    day: 21,
    files: {
      'bv/a.sh': `one() { echo 1; }\n${filler('bv')}\n# end of bv\nthree() { echo 3; }\n`,
      'test/bv6.test.sh': sh('bv/a.sh', '[ "$(three)" = 3 ]'),
    },
  },
  // 7+8 composition: each passes alone, together both break (one changes the name, the other the greeting).
  {
    number: 7,
    day: 31,
    files: {
      'comp/greet.sh': `NAME=World\n${filler('greet')}\ngreet() { echo "hi $NAME"; }\n`,
      'test/comp7.test.sh': sh('comp/greet.sh', '[ "$(greet)" = "hi World" ]'),
    },
  },
  {
    number: 8,
    day: 31,
    files: {
      'comp/greet.sh': `NAME=world\n${filler('greet')}\ngreet() { echo "hello $NAME"; }\n`,
      'test/comp8.test.sh': sh('comp/greet.sh', '[ "$(greet)" = "hello world" ]'),
    },
  },
  // 9+10 flaky: PR 9's test alternates via a counter file outside the checkout.
  {
    number: 9,
    day: 41,
    files: {
      'flaky/x.sh': `X=1\nY=2\n${filler('flaky')}\n# end of x\n`,
      'test/flaky9.test.sh':
        'n=$(cat "$FLAKY_COUNTER" 2>/dev/null || echo 0)\nn=$((n + 1))\necho "$n" > "$FLAKY_COUNTER"\n' +
        '. ./flaky/x.sh\n[ "$Y" = 2 ] && [ $((n % 2)) -eq 0 ]\n',
    },
  },
  {
    number: 10,
    day: 41,
    files: {
      'flaky/x.sh': `X=1\n${filler('flaky')}\n# end of x\nZ=3\n`,
      'test/flaky10.test.sh': sh('flaky/x.sh', '[ "$Z" = 3 ]'),
    },
  },
  // 11+12 control: disjoint files and directories.
  { number: 11, day: 51, files: { 'ctl_a/one.sh': 'one() { echo 1; }\n', 'test/one.test.sh': sh('ctl_a/one.sh', '[ "$(one)" = 1 ]') } },
  { number: 12, day: 51, files: { 'ctl_b/two.sh': 'two() { echo 2; }\n', 'test/two.test.sh': sh('ctl_b/two.sh', '[ "$(two)" = 2 ]') } },
  // 15 pairs with 11 and with 12 (three control pairs share per-PR runs).
  { number: 15, day: 51, files: { 'ctl_c/three.sh': 'three() { echo 3; }\n', 'test/three.test.sh': sh('ctl_c/three.sh', '[ "$(three)" = 3 ]') } },
  // 16+17 apply failure: 16 edits README.md as of the first main commit; 17's newer base changed it.
  { number: 16, day: 71, files: { 'README.md': 'widgets v2\n', 'test/readme.test.sh': 'grep -q v2 README.md\n' } },
  { number: 17, day: 71, fromLater: true, files: { 'apf/x.sh': 'X=2\n', 'test/apf.test.sh': sh('apf/x.sh', '[ "$X" = 2 ]') } },
  // 18+19 no fail-to-pass: 18's test fails with and without its code.
  { number: 18, day: 81, files: { 'nf_a/x.sh': 'X=2\n', 'test/nf18.test.sh': sh('nf_a/x.sh', '[ "$X" = 5 ]') } },
  { number: 19, day: 81, files: { 'nf_b/y.sh': 'Y=2\n', 'test/nf19.test.sh': sh('nf_b/y.sh', '[ "$Y" = 2 ]') } },
  // 20+21 coupled through an import (a.js requires b.js), but without tests: no fail-to-pass.
  { number: 20, day: 91, files: { 'imp/a.js': `const b = require('./b.js');\nexports.a = () => b.b() + 1;\n` } },
  { number: 21, day: 91, files: { 'imp/b.js': `exports.b = () => 2;\n` } },
  // 22+23: 22 changes only a test, so it has no code patch.
  { number: 22, day: 101, files: { 'test/only.test.sh': 'true\n' } },
  { number: 23, day: 101, files: { 'tc_a/a.sh': 'A=3\n', 'test/a3.test.sh': sh('tc_a/a.sh', '[ "$A" = 3 ]') } },
  // 24+25: the code merges cleanly, but both test patches edit the same line.
  { number: 24, day: 111, files: { 'tc_a/a.sh': 'A=2\n', 'test/shared.test.sh': sh('tc_a/a.sh', '[ "$A" = 2 ]') } },
  { number: 25, day: 111, files: { 'tc_b/b.sh': 'B=2\n', 'test/shared.test.sh': sh('tc_b/b.sh', '[ "$B" = 2 ]') } },
  // 13+14 unrelated: same directory, different files, no import.
  { number: 13, day: 61, files: { 'unrel/p.sh': 'P=2\n', 'test/p.test.sh': sh('unrel/p.sh', '[ "$P" = 2 ]') } },
  { number: 14, day: 61, files: { 'unrel/q.sh': 'Q=2\n', 'test/q.test.sh': sh('unrel/q.sh', '[ "$Q" = 2 ]') } },
];

const iso = (day: number, hour: number): string => new Date(Date.UTC(2024, 2, 1) + day * 86_400_000 + hour * 3_600_000).toISOString();

/** Builds the repository, stores its PRs through Sources, and returns a config for it. */
export async function buildWorld(store: Store, options: { only?: readonly number[] } = {}): Promise<World> {
  const repo = await makeRepo();
  const base0 = await repo.commit('base', { files: BASE_FILES });
  const base1 = await repo.commit('docs', { files: { 'README.md': 'widgets, documented\n' } });
  const sources = store.sources;
  const heads: Record<number, string> = {};
  for (const pr of PRS) {
    if (options.only && !options.only.includes(pr.number)) continue;
    const from = pr.fromLater ? base1 : base0;
    await repo.checkout(`pr-${pr.number}`, { create: true, from });
    const head = await repo.commit(`PR ${pr.number}`, { files: pr.files });
    await repo.updateRef(`refs/pull/${pr.number}/head`, head);
    heads[pr.number] = head;
    await repo.checkout('main');
    sources.upsertPull({
      repo: REPO,
      number: pr.number,
      title: `PR ${pr.number}`,
      body: '',
      author: 'dev',
      state: 'closed',
      draft: false,
      baseRef: 'main',
      baseSha: from,
      headRef: `pr-${pr.number}`,
      headSha: head,
      mergeCommitSha: null,
      createdAt: iso(pr.day, pr.number % 2 === 1 ? 0 : 1),
      mergedAt: iso(pr.day, pr.number % 2 === 1 ? 5 : 6),
      htmlUrl: `https://github.com/${REPO}/pull/${pr.number}`,
      commitShas: [head],
      commitMessages: [`PR ${pr.number}`],
      source: 'test',
    });
  }
  const dataDir = await tempDir('r2v-pairs-data-');
  const counterDir = await tempDir('r2v-pairs-counter-');
  const config = Config.parse({
    repos: [{ name: REPO, git_url: repo.dir, test_command: `FLAKY_COUNTER=${join(counterDir, 'count')} sh run-test.sh {tests}` }],
    pairs: { window_days: 0, repeats: 2 },
  });
  return { repo, dataDir, counterDir, config, heads, base0, base1 };
}

export function contextFor(store: Store, world: World): StageContext {
  return createStageContext({
    store,
    config: world.config,
    log: silentLogger,
    signal: new AbortController().signal,
    dataDir: world.dataDir,
    env: {},
    options: { testTimeoutMs: 20_000 },
  });
}
