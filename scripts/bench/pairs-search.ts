// Benchmark: Forward paired-state search (r2v forward-pairs) over 1,000 cases of a generated
// 20,000-commit repository whose workflows change now and then, against a naive search that
// reads and compiles the workflows at every commit with git processes (sampled on a few cases,
// same walk). Run: node --import tsx scripts/bench/pairs-search.ts
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { forwardContext } from '../../src/model/forward.js';
import { PairedStateSearch } from '../../src/forward/paired-states.js';
import { BatchObjects } from '../../src/git/batch.js';
import { runGit } from '../../src/git/runner.js';
import { readWorkflowFiles } from '../../src/git/workflows.js';
import { route } from '../../src/routing/index.js';
import { seededRandom } from '../../src/util/random.js';

const VERSION = 'v1';
const COMMITS = 20_000;
const WORKFLOW_EVERY = 150;
const CASES = 1_000;
const NAIVE_CASES = 5;
/** The naive side stops after this many commits in all (it is measured as a rate). */
const NAIVE_MAX_COMMITS = 400;
const BOUND = 500;
const DIRS = 12;

const data = (t: string): string => `data ${Buffer.byteLength(t)}\n${t}\n`;
const wf = (name: string, dirs: number[]): string =>
  `name: ${name}\non:\n  pull_request:\n    paths:\n${dirs.map((d) => `      - 'src/d${d}/**'`).join('\n')}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n`;

function buildStream(): string {
  const random = seededRandom(5);
  const parts: string[] = [];
  let time = 1_600_000_000;
  for (let i = 1; i <= COMMITS; i++) {
    time += 60;
    let change = `M 100644 inline src/d${i % DIRS}/f${i % 31}.c\n${data(`v${i}\n`)}`;
    if (i === 1 || i % WORKFLOW_EVERY === 0) {
      for (let w = 0; w < (i === 1 ? 5 : 1); w++) {
        const k = i === 1 ? w : Math.floor(random() * 5);
        const dirs = [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * DIRS)))].sort((a, b) => a - b);
        change += `M 100644 inline .github/workflows/w${k}.yml\n${data(wf(`w${k}`, dirs))}`;
      }
    }
    parts.push(`commit refs/heads/main\nmark :${i}\ncommitter Dev <dev@example.com> ${time} +0000\n${data(`change ${i}`)}${i > 1 ? `from :${i - 1}\n` : ''}${change}`);
  }
  return parts.join('');
}

async function ensureRepo(): Promise<string> {
  const dir = join(tmpdir(), `r2v-bench-pairs-search-${VERSION}.git`);
  if (existsSync(join(dir, 'r2v-bench-complete'))) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await execa('git', ['init', '-q', '--bare', '--initial-branch=main', dir]);
  await execa('git', [`--git-dir=${dir}`, 'fast-import', '--quiet'], { input: buildStream() });
  await writeFile(join(dir, 'r2v-bench-complete'), 'ok\n');
  return dir;
}

async function main(): Promise<void> {
  const dir = await ensureRepo();
  const line = (await runGit(dir, ['rev-list', '--first-parent', 'main'])).stdout.split('\n').filter(Boolean);
  const random = seededRandom(9);
  const ctx = forwardContext('main');
  const cases = Array.from({ length: CASES }, (_, i) => {
    const base = line[Math.floor(random() * (line.length - 1000))]!;
    const changed = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => `src/d${Math.floor(random() * DIRS)}/f${Math.floor(random() * 31)}.c`))];
    return { caseId: `o_r__${i}__00000000`, repo: 'o/r', base, changedPaths: changed, context: ctx, gold: [] as string[] };
  });
  // The recorded gold of each case, as the route stage would have computed it.
  for (const c of cases) c.gold = route(await readWorkflowFiles(dir, c.base), c.changedPaths, ctx).activated.slice().sort();

  const objects = BatchObjects.open(dir);
  const search = new PairedStateSearch(objects, BOUND);
  const t0 = performance.now();
  let paired = 0;
  let walked = 0;
  for (const c of cases) {
    const out = await search.search(c);
    if (out.status === 'paired') {
      paired += 1;
      walked += out.distance;
    } else if (out.status === 'no-pair') walked += out.searched;
  }
  const ms = performance.now() - t0;
  await objects.close();

  // Naive: at every first-parent commit below the base, read the workflows (ls-tree + cat-file) and route.
  const index = new Map(line.map((s, i) => [s, i]));
  const t1 = performance.now();
  let naiveWalked = 0;
  for (const c of cases.slice(0, NAIVE_CASES)) {
    if (naiveWalked >= NAIVE_MAX_COMMITS) break;
    const gold = c.gold.join('\n');
    const at = index.get(c.base)!;
    for (let k = 1; k <= BOUND && at + k < line.length && naiveWalked < NAIVE_MAX_COMMITS; k++) {
      naiveWalked += 1;
      const other = route(await readWorkflowFiles(dir, line[at + k]!), c.changedPaths, ctx).activated.slice().sort();
      if (other.join('\n') !== gold) break;
    }
  }
  const naiveMs = performance.now() - t1;
  const rate = walked / (ms / 1000);
  const naiveRate = naiveWalked / (naiveMs / 1000);
  console.log(`repository: ${line.length.toLocaleString('en-US')} first-parent commits, workflows change every ~${WORKFLOW_EVERY} commits; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`);
  console.log(`r2v forward-pairs: ${CASES} cases in ${(ms / 1000).toFixed(2)} s (${(ms / CASES).toFixed(2)} ms/case), ${paired} paired, ${walked.toLocaleString('en-US')} commits walked = ${Math.round(rate).toLocaleString('en-US')} commits/s; ${search.statesRouted} states routed, ${search.commitsRead} commits read`);
  console.log(`naive (git processes + compile per commit, ${NAIVE_CASES} cases): ${naiveWalked} commits in ${(naiveMs / 1000).toFixed(2)} s = ${Math.round(naiveRate).toLocaleString('en-US')} commits/s`);
  console.log(`ratio: ${(rate / naiveRate).toFixed(0)}x commits/s`);
}

await main();
