// Benchmark: resolving commit abbreviations with long-lived cat-file processes against one
// `git rev-parse` process per name, on a generated repository of 50,000+ commits; and the time
// of cutoff + ancestry checks. Run: node --import tsx scripts/bench/resolve.ts
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchObjects } from '../../src/git/batch.js';
import { BranchHistory } from '../../src/git/branch-history.js';
import { computeCutoff, isAncestor } from '../../src/git/history.js';
import { runGit } from '../../src/git/runner.js';
import { seededRandom } from '../../src/util/random.js';

const VERSION = 'v2';
const MAIN_COMMITS = 50_000;
const MERGE_EVERY = 200;
const NAMES = 20_000;
const SAMPLE = 500;
const CASES = 1_000;
const SINGLE_CASES = 100;
const CONCURRENCY = 4;
const START = 1_600_000_000;
const STEP = 60;

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/** A fast-import stream: a first-parent line of MAIN_COMMITS commits, with a two-commit topic merged every MERGE_EVERY. */
function buildStream(): string {
  const parts: string[] = [];
  let mark = 0;
  let time = START;
  let tip = 0;
  const commit = (ref: string, msg: string, from: number, merge: number | null, path: string, content: string): number => {
    mark += 1;
    time += STEP;
    parts.push(
      `commit ${ref}\nmark :${mark}\nauthor Dev <dev@example.com> ${time} +0000\ncommitter Dev <dev@example.com> ${time} +0000\n${data(msg)}` +
        (from ? `from :${from}\n` : '') +
        (merge ? `merge :${merge}\n` : '') +
        `M 100644 inline ${path}\n${data(content)}`,
    );
    return mark;
  };
  for (let i = 1; i <= MAIN_COMMITS; i++) {
    if (i % MERGE_EVERY === 0) {
      const k = i / MERGE_EVERY;
      const s1 = commit(`refs/heads/topic-${k}`, `topic ${k} part 1`, tip, null, `topic/${k}.txt`, `topic ${k} a\n`);
      const s2 = commit(`refs/heads/topic-${k}`, `topic ${k} part 2`, s1, null, `topic/${k}.txt`, `topic ${k} b\n`);
      tip = commit('refs/heads/main', `Merge pull request #${k} from dev/topic-${k}`, tip, s2, `merged/${k % 50}.txt`, `merge ${k}\n`);
    } else {
      tip = commit('refs/heads/main', `change ${i}`, tip, null, `src/d${i % 20}/f${Math.floor(i / 20) % 25}.txt`, `content ${i}\n`);
    }
  }
  return parts.join('');
}

async function ensureRepo(): Promise<{ dir: string; seconds: number | null }> {
  const dir = join(tmpdir(), `r2v-bench-resolve-${VERSION}.git`);
  const done = join(dir, 'r2v-bench-complete');
  if (existsSync(done)) return { dir, seconds: null };
  const t0 = performance.now();
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await execa('git', ['init', '-q', '--bare', '--initial-branch=main', dir], { env: { LC_ALL: 'C' } });
  await execa('git', [`--git-dir=${dir}`, 'fast-import', '--quiet'], { input: buildStream(), env: { LC_ALL: 'C' } });
  await execa('git', [`--git-dir=${dir}`, 'commit-graph', 'write', '--reachable'], { env: { LC_ALL: 'C' } });
  await writeFile(done, `${new Date().toISOString()}\n`);
  return { dir, seconds: (performance.now() - t0) / 1000 };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

async function main(): Promise<void> {
  const { dir, seconds } = await ensureRepo();
  const random = seededRandom(42);
  const commits = (await runGit(dir, ['rev-list', '--all'])).stdout.split('\n').filter(Boolean);
  const objects = (await runGit(dir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)'])).stdout.split('\n').filter(Boolean).sort();
  // Natural collisions: 7-hex prefixes shared by two objects of the repository.
  const ambiguous: string[] = [];
  for (let i = 1; i < objects.length; i++) if (objects[i]!.slice(0, 7) === objects[i - 1]!.slice(0, 7)) ambiguous.push(objects[i]!.slice(0, 7));
  const names: string[] = [];
  const hex = '0123456789abcdef';
  for (let i = 0; i < NAMES; i++) {
    const len = 7 + Math.floor(random() * 6);
    const roll = random();
    if (roll < 0.01 && ambiguous.length > 0) names.push(ambiguous[Math.floor(random() * ambiguous.length)]!);
    else if (roll < 0.06) names.push(Array.from({ length: len }, () => hex[Math.floor(random() * 16)]).join(''));
    else names.push(commits[Math.floor(random() * commits.length)]!.slice(0, len));
  }
  console.log(`repository: ${fmt(commits.length)} commits, ${fmt(objects.length)} objects (${seconds === null ? 'cached' : `generated in ${seconds.toFixed(1)} s`}) at ${dir}`);

  const t0 = performance.now();
  const batch = BatchObjects.open(dir);
  const results = await batch.resolve(names);
  const batchMs = performance.now() - t0;
  const counts: Record<string, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  const batchRate = (NAMES / batchMs) * 1000;
  console.log(`batch (cat-file --batch-command --buffer): ${fmt(NAMES)} names in ${fmt(batchMs)} ms = ${fmt(batchRate)} names/s (${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}; ${ambiguous.length} colliding 7-hex prefixes in the repo)`);

  const tc = performance.now();
  const classic = BatchObjects.open(dir, { protocol: 'classic' });
  const classicResults = await classic.resolve(names);
  const classicMs = performance.now() - tc;
  await classic.close();
  const differ = classicResults.filter((r, i) => r.sha !== results[i]!.sha || r.status !== results[i]!.status).length;
  console.log(`batch (classic cat-file --batch-check): ${fmt(NAMES)} names in ${fmt(classicMs)} ms = ${fmt((NAMES / classicMs) * 1000)} names/s; answers differing: ${differ}`);

  const sample = names.slice(0, SAMPLE);
  const t1 = performance.now();
  let mismatches = 0;
  for (const [i, name] of sample.entries()) {
    const r = await execa('git', [`--git-dir=${dir}`, 'rev-parse', '--verify', '--quiet', `${name}^{commit}`], { reject: false, env: { LC_ALL: 'C' } });
    const sha = r.exitCode === 0 ? r.stdout.trim() : null;
    const mine = results[i]!.status === 'ok' ? results[i]!.sha : null;
    if (sha !== mine && results[i]!.status !== 'ambiguous') mismatches += 1;
  }
  const perMs = performance.now() - t1;
  const perRate = (SAMPLE / perMs) * 1000;
  console.log(`per-process (git rev-parse per name): ${SAMPLE}-name sample in ${fmt(perMs)} ms = ${fmt(perRate)} names/s (extrapolated to ${fmt(NAMES)} names: ${((NAMES / perRate)).toFixed(1)} s); answers differing from batch: ${mismatches}`);
  console.log(`ratio: batch is ${(batchRate / perRate).toFixed(1)}x the per-process rate (targets: >= 50x and >= 30,000 names/s)`);

  const mainLine = (await runGit(dir, ['rev-list', '--first-parent', '--format=%H %ct', '--no-commit-header', 'refs/heads/main'])).stdout.split('\n').filter(Boolean).map((l) => l.split(' '));
  const cases = Array.from({ length: CASES }, () => {
    const gi = 1 + Math.floor(random() * (mainLine.length - 2));
    const [gold, goldTime] = mainLine[gi]!;
    return { gold: gold!, report: new Date((Number(goldTime) + Math.floor(random() * 200) * STEP) * 1000) };
  });
  const t2 = performance.now();
  let ancestors = 0;
  let next = 0;
  const single = cases.slice(0, SINGLE_CASES);
  const singleShas: (string | null)[] = [];
  const worker = async (): Promise<void> => {
    while (next < single.length) {
      const i = next++;
      const c = single[i]!;
      const cutoff = await computeCutoff(dir, 'main', c.report);
      singleShas[i] = cutoff.sha;
      if (cutoff.sha && (await isAncestor(dir, c.gold, cutoff.sha))) ancestors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const singleMs = performance.now() - t2;
  const singleRate = (SINGLE_CASES / singleMs) * 1000;
  console.log(`cutoff + ancestry, one case at a time (computeCutoff + isAncestor, ${CONCURRENCY} in flight): ${SINGLE_CASES}-case sample in ${(singleMs / 1000).toFixed(1)} s = ${singleRate.toFixed(1)} cases/s (extrapolated to ${fmt(CASES)} cases: ${(CASES / singleRate).toFixed(0)} s)`);

  const t3 = performance.now();
  const history = await BranchHistory.load(dir, 'main');
  const cutoffs = cases.map((c) => history.cutoff(c.report));
  const anc: boolean[] = [];
  for (const [i, c] of cases.entries()) anc.push(await history.ancestor(c.gold, cutoffs[i]!.sha ?? c.gold));
  const batchCaseMs = performance.now() - t3;
  const agree = single.every((_, i) => cutoffs[i]!.sha === singleShas[i]) && anc.slice(0, SINGLE_CASES).filter(Boolean).length === ancestors;
  console.log(`cutoff + ancestry, batched (BranchHistory: cutoff + ancestor): ${fmt(CASES)} cases in ${(batchCaseMs / 1000).toFixed(2)} s = ${fmt((CASES / batchCaseMs) * 1000)} cases/s (${anc.filter(Boolean).length} gold below cutoff; agrees with one-at-a-time on the sample: ${agree})`);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores (process spawns dominate the per-process and cutoff figures)`);
  await batch.close();
}

await main();
