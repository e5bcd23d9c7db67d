// Benchmark: cutoff + structural checks for many Backward cases of one repository, batched
// (BranchHistory: the branch's history read once, everything else in memory or through the
// long-lived cat-file reader) against the per-case reference (computeCutoff + structuralChecks:
// git processes per case), with agreement checked on the reference sample.
//   node --import tsx scripts/bench/history.ts [--git-dir PATH] [--branch NAME] [--cases N] [--sample N]
// Without --git-dir a generated 50,000-commit repository with foxtrot merges is used. Point
// --git-dir at a real mirror to measure real shapes (nothing of it is written or kept).
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BatchObjects } from '../../src/git/batch.js';
import { BranchHistory } from '../../src/git/branch-history.js';
import { structuralChecks, structuralChecksWith } from '../../src/backward/chain.js';
import { computeCutoff, defaultBranchOf } from '../../src/git/history.js';
import { runGit } from '../../src/git/runner.js';
import { seededRandom } from '../../src/util/random.js';
import { cachedFastImportRepo } from './fast-import.js';

const { values } = parseArgs({
  options: {
    'git-dir': { type: 'string' },
    branch: { type: 'string' },
    cases: { type: 'string', default: '1000' },
    sample: { type: 'string', default: '40' },
  },
});
const CASES = Number(values.cases);
const SAMPLE = Number(values.sample);

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** 50,000 commits on main; every 100th step a topic merged by the button, every 700th a foxtrot merge (main merged into a topic, main fast-forwarded). */
function generated(): Promise<string> {
  return cachedFastImportRepo('r2v-bench-history-v1.git', (w) => {
    const commit = (ref: string, msg: string, from: number, merge: number | null, path: string): number => w.commit(ref, msg, from, merge, path, (mark) => `${mark}\n`);
    let tip = 0;
    for (let i = 1; w.count < 50_000; i++) {
      if (i % 700 === 0) {
        const t1 = commit(`refs/heads/topic-${i}`, `topic ${i}`, tip, null, `t/${i}.txt`);
        tip = commit('refs/heads/main', `main ${i}`, tip, null, `m/${i % 97}.txt`);
        tip = commit('refs/heads/main', `Merge branch 'main' into topic-${i}`, t1, tip, `t/${i}.txt`);
      } else if (i % 100 === 0) {
        const t1 = commit(`refs/heads/topic-${i}`, `topic ${i}`, tip, null, `t/${i}.txt`);
        tip = commit('refs/heads/main', `Merge pull request #${i} from dev/topic-${i}`, tip, t1, `m/${i % 97}.txt`);
      } else {
        tip = commit('refs/heads/main', `change ${i}`, tip, null, `src/${i % 50}/${i % 13}.txt`);
      }
    }
  });
}

async function main(): Promise<void> {
  const gitDir = values['git-dir'] ? resolve(values['git-dir']) : await generated();
  const branch = values.branch ?? (await defaultBranchOf(gitDir));
  if (!branch) throw new Error(`${gitDir}: HEAD names no branch; pass --branch`);
  const all = Number((await runGit(gitDir, ['rev-list', '--count', '--all'])).stdout.trim());
  const pulls = (await runGit(gitDir, ['for-each-ref', '--format=x', 'refs/pull/'])).stdout.split('\n').filter(Boolean).length;

  // Cases: golds sampled from the branch's non-merge commits, reported 0-60 days after the gold.
  const random = seededRandom(19);
  const line = (await runGit(gitDir, ['rev-list', '--no-merges', '--format=%H %ct', '--no-commit-header', `refs/heads/${branch}`])).stdout.split('\n').filter(Boolean).map((l) => l.split(' '));
  const cases = Array.from({ length: CASES }, () => {
    const [gold, t] = line[Math.floor(random() * line.length)]!;
    return { gold: gold!, report: new Date((Number(t) + Math.floor(random() * 60 * 86400)) * 1000) };
  });

  const objects = BatchObjects.open(gitDir);
  try {
    const t0 = performance.now();
    const history = await BranchHistory.load(gitDir, branch);
    const loadMs = performance.now() - t0;
    const cutoffs = cases.map((c) => history.cutoff(c.report));
    const cutoffMs = performance.now() - t0;
    const checks = [];
    for (const [i, c] of cases.entries()) checks.push(await structuralChecksWith(history, { gitDir, objects }, { gold: c.gold, cutoff: cutoffs[i]!.sha, defaultBranch: branch, reportTime: c.report }));
    const batchMs = performance.now() - t0;
    const corrected = cutoffs.filter((c) => c.rule === 'foxtrot-corrected').length;
    const failing = checks.filter((cs) => cs.some((c) => !c.pass)).length;
    console.log(`repository: ${gitDir} — ${fmt(all)} commits in the mirror, ${fmt(history.size)} on ${branch}, ${fmt(pulls)} refs/pull/*`);
    console.log(`batched (BranchHistory): ${fmt(CASES)} cases, cutoff + 8 structural checks, in ${(batchMs / 1000).toFixed(2)} s (history read ${fmt(loadMs)} ms, cutoffs ${fmt(cutoffMs - loadMs)} ms, checks ${fmt(batchMs - cutoffMs)} ms) = ${((batchMs / CASES)).toFixed(2)} ms/case; ${corrected} foxtrot-corrected, ${failing} with a failing check`);

    const sample = cases.slice(0, SAMPLE);
    const t1 = performance.now();
    let agree = 0;
    for (const [i, c] of sample.entries()) {
      const cutoff = await computeCutoff(gitDir, branch, c.report);
      const ref = await structuralChecks({ gitDir, objects }, { gold: c.gold, cutoff: cutoff.sha, defaultBranch: branch, reportTime: c.report });
      if (JSON.stringify(cutoff) === JSON.stringify(cutoffs[i]) && JSON.stringify(ref) === JSON.stringify(checks[i])) agree += 1;
    }
    const refMs = (performance.now() - t1) / SAMPLE;
    console.log(`per-case reference (computeCutoff + structuralChecks): ${fmt(refMs)} ms/case on a ${SAMPLE}-case sample (extrapolated to ${fmt(CASES)} cases: ${((refMs * CASES) / 1000).toFixed(0)} s); agreement on the sample: ${agree}/${SAMPLE}`);
    console.log(`ratio: batched is ${((refMs * CASES) / batchMs).toFixed(0)}x the per-case reference (target: <= 5 s for 1,000 cases)`);
    console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    if (agree !== SAMPLE) process.exitCode = 1;
  } finally {
    await objects.close();
  }
}

await main();
