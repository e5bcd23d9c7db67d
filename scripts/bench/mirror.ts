// Benchmark: a full mirror against a blobless partial mirror (the default) of a generated
// 20,000-commit repository with large binary blobs, cloned from a local file:// remote that allows
// filters; then resolve + cutoff + Δ* + route on the partial mirror, counting the objects each step
// fetched. Run: node --import tsx scripts/bench/mirror.ts
import { execa } from 'execa';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BatchObjects } from '../../src/git/batch.js';
import { BranchHistory } from '../../src/git/branch-history.js';
import { changedPaths } from '../../src/git/forward.js';
import { ensureMirror } from '../../src/git/mirror.js';
import { blobsFetched, missingObjects } from '../../src/git/partial.js';
import { readWorkflowFiles } from '../../src/git/workflows.js';
import { runGit } from '../../src/git/runner.js';
import { route } from '../../src/routing/index.js';
import { seededRandom } from '../../src/util/random.js';

const VERSION = 'v1';
const COMMITS = 20_000;
const BIG_EVERY = 50; // a large binary blob changes every 50 commits
const BIG_BYTES = 256 * 1024;
const WORKFLOW_EVERY = 2_000;
const START = 1_600_000_000;
const STEP = 60;
const CASES = 200;

function data(text: string | Buffer): string | Buffer[] {
  return typeof text === 'string' ? `data ${Buffer.byteLength(text)}\n${text}\n` : [Buffer.from(`data ${text.length}\n`), text, Buffer.from('\n')];
}

function workflow(i: number): string {
  return `name: ci-${i}\non:\n  pull_request:\n    paths: ['src/d${i % 20}/**', '!src/**/*.md']\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n`;
}

/** A fast-import stream: COMMITS commits on main; every BIG_EVERY one rewrites an incompressible blob. */
function buildStream(): Buffer {
  const random = seededRandom(7);
  const parts: Buffer[] = [];
  const push = (x: string | Buffer | Buffer[]): void => {
    if (Array.isArray(x)) parts.push(...x);
    else parts.push(typeof x === 'string' ? Buffer.from(x) : x);
  };
  for (let i = 1; i <= COMMITS; i++) {
    const time = START + i * STEP;
    push(`commit refs/heads/main\nmark :${i}\nauthor Dev <dev@example.com> ${time} +0000\ncommitter Dev <dev@example.com> ${time} +0000\n`);
    push(data(`change ${i}`));
    if (i > 1) push(`from :${i - 1}\n`);
    push(`M 100644 inline src/d${i % 20}/f${Math.floor(i / 20) % 25}.txt\n`);
    push(data(`content ${i}\n`));
    if (i % BIG_EVERY === 0 || i === 1) {
      const big = Buffer.alloc(BIG_BYTES);
      for (let b = 0; b < BIG_BYTES; b += 4) big.writeUInt32LE(Math.floor(random() * 0xffffffff), b);
      push(`M 100644 inline assets/blob${i % 10}.bin\n`);
      push(data(big));
    }
    if (i % WORKFLOW_EVERY === 0 || i === 1) {
      push(`M 100644 inline .github/workflows/ci${(i / WORKFLOW_EVERY) % 3}.yml\n`);
      push(data(workflow(i)));
    }
  }
  return Buffer.concat(parts);
}

async function ensureSource(): Promise<{ dir: string; seconds: number | null }> {
  const dir = join(tmpdir(), `r2v-bench-mirror-${VERSION}.git`);
  const done = join(dir, 'r2v-bench-complete');
  if (existsSync(done)) return { dir, seconds: null };
  const t0 = performance.now();
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const env = { LC_ALL: 'C' };
  await execa('git', ['init', '-q', '--bare', '--initial-branch=main', dir], { env });
  await execa('git', [`--git-dir=${dir}`, 'fast-import', '--quiet'], { input: buildStream(), env });
  await execa('git', [`--git-dir=${dir}`, 'repack', '-adq'], { env });
  await execa('git', [`--git-dir=${dir}`, 'config', 'uploadpack.allowFilter', 'true'], { env });
  await execa('git', [`--git-dir=${dir}`, 'config', 'uploadpack.allowAnySHA1InWant', 'true'], { env });
  await writeFile(done, `${new Date().toISOString()}\n`);
  return { dir, seconds: (performance.now() - t0) / 1000 };
}

function du(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, name) => n + du(join(path, name)), 0);
}

/** Objects in the mirror: loose + packed (`git count-objects -v`). */
async function objectCount(dir: string): Promise<number> {
  const out = (await runGit(dir, ['count-objects', '-v'])).stdout;
  const get = (k: string): number => Number(new RegExp(`^${k}: (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
  return get('count') + get('in-pack');
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const { dir: source, seconds } = await ensureSource();
  const url = pathToFileURL(source).href;
  const work = join(tmpdir(), `r2v-bench-mirror-work-${process.pid}`);
  await rm(work, { recursive: true, force: true });
  console.log(`machine: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`source: ${COMMITS.toLocaleString('en-US')} commits, a ${BIG_BYTES / 1024} KB incompressible blob every ${BIG_EVERY} commits, ${mb(du(source))} on disk${seconds === null ? ' (cached)' : `, generated in ${seconds.toFixed(1)} s`}`);

  try {
    const full = join(work, 'full.git');
    let t0 = performance.now();
    await ensureMirror({ repo: 'bench/mirror', url, dir: full, partial: false });
    const fullS = (performance.now() - t0) / 1000;
    const fullBytes = du(full);

    const partial = join(work, 'partial.git');
    t0 = performance.now();
    await ensureMirror({ repo: 'bench/mirror', url, dir: partial });
    const partialS = (performance.now() - t0) / 1000;
    const partialBytes = du(partial);
    const missingBlobs = (await missingObjects(partial, 'main^{tree}')).length;
    console.log(`full mirror (naive):  ${fullS.toFixed(2)} s, ${mb(fullBytes)}`);
    console.log(`blobless mirror:      ${partialS.toFixed(2)} s, ${mb(partialBytes)} (${missingBlobs} blobs of the tip tree absent)`);
    console.log(`ratio: ${(fullS / partialS).toFixed(1)}× faster, ${(fullBytes / partialBytes).toFixed(1)}× less disk`);

    // resolve + cutoff + Δ* + route on the blobless mirror, counting objects before and after.
    const random = seededRandom(11);
    const before = await objectCount(partial);
    const shas = (await runGit(partial, ['rev-list', 'main'])).stdout.trim().split('\n');
    const picks = Array.from({ length: CASES }, () => shas[Math.floor(random() * (shas.length - 1))]!);
    t0 = performance.now();
    const batch = BatchObjects.open(partial);
    const resolved = await batch.resolve(picks.map((s) => s.slice(0, 10)));
    await batch.close();
    const okResolved = resolved.filter((r) => r.sha !== null && r.type === 'commit').length;
    const history = await BranchHistory.load(partial, 'main');
    const cutoffs = picks.map((_, i) => history.cutoff(new Date((START + (i + 1) * 97 * STEP) * 1000)));
    const afterResolve = await objectCount(partial);
    let routed = 0;
    let activated = 0;
    for (const sha of picks.slice(0, 50)) {
      const base = `${sha}~1`;
      const paths = await changedPaths(partial, (await runGit(partial, ['rev-parse', base])).stdout.trim(), sha);
      const files = await readWorkflowFiles(partial, base);
      const r = route(files, paths, { event: 'pull_request', action: 'synchronize', base_branch: 'main' });
      routed += 1;
      activated += r.activated.length;
    }
    const routeS = (performance.now() - t0) / 1000;
    const after = await objectCount(partial);
    const wf = (await runGit(partial, ['log', '--format=', '--name-only', 'main', '--', '.github/workflows'])).stdout.split('\n').filter(Boolean).length;
    console.log(
      `on the blobless mirror: resolve ${okResolved}/${CASES} abbreviations + ${cutoffs.length} cutoffs: ${afterResolve - before} objects fetched; ` +
        `Δ* + route of ${routed} changes (${activated} activations): ${after - afterResolve} objects fetched ` +
        `(${blobsFetched(partial)} workflow blobs, in batches; history has ${wf} workflow versions and ${Math.floor(COMMITS / BIG_EVERY) + 1} large blobs) in ${routeS.toFixed(2)} s`,
    );
    if (afterResolve !== before) {
      console.error('resolve and cutoff fetched objects on a blobless mirror');
      process.exitCode = 1;
    }
    if (after - afterResolve > blobsFetched(partial)) {
      console.error('routing fetched more than the workflow blobs');
      process.exitCode = 1;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
