// Benchmark: 100 Backward packages of one repository, with the shared history layers
// (src/export/object-layers.ts: fixed first-parent layers — a pack and a history part each —
// hard-linked into every package, plus a pack and a part of the rest) against the naive layout
// measured in the same run (one whole pack and one whole history part per package, on a sample,
// extrapolated). Prints total disk (hard links counted once, like du), time, the ratio to one
// package built alone (in the same layout, and with one whole pack: the smallest one package can
// be), where the bytes are, and audits a sample.
//   npm run bench -- packages [--git-dir PATH] [--branch NAME] [--cases 100] [--naive 10] [--audit 5] [--work-tree none|checkout] [--layer-commits 1024]
// Without --git-dir a generated 50,000-commit repository is used. Point --git-dir at a real mirror
// to measure real shapes (nothing of it is written or kept; the packages go to a temp dir).
// --work-tree is the packaging option (default here: none, the layout for large sets);
// --layer-commits tries another layer size than the packaging's (LAYER_COMMITS).
import { execa } from 'execa';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { auditBackward } from '../../src/export/audit.js';
import { LAYER_COMMITS, OBJECTS_DIR } from '../../src/export/object-layers.js';
import { GRADING_DIR, packageBackward, WORK_TREE_MODES, type BackwardGrading, type WorkTreeMode } from '../../src/export/package.js';
import { BackwardManifestRecord } from '../../src/export/read-manifest.js';
import { defaultBranchOf } from '../../src/git/history.js';
import { runGit } from '../../src/git/runner.js';
import { seededRandom } from '../../src/util/random.js';
import { cachedFastImportRepo } from './fast-import.js';

const { values } = parseArgs({
  options: {
    'git-dir': { type: 'string' },
    branch: { type: 'string' },
    cases: { type: 'string', default: '100' },
    naive: { type: 'string', default: '10' },
    audit: { type: 'string', default: '5' },
    'work-tree': { type: 'string', default: 'none' },
    'layer-commits': { type: 'string', default: String(LAYER_COMMITS) },
  },
});
const LAYER = Number(values['layer-commits']);
if (!Number.isInteger(LAYER) || LAYER < 1) {
  process.stderr.write('bench packages: --layer-commits must be a whole number >= 1\n');
  process.exit(2);
}
const WORK_TREE = values['work-tree'] as WorkTreeMode;
if (!(WORK_TREE_MODES as readonly string[]).includes(WORK_TREE)) {
  process.stderr.write(`bench packages: --work-tree must be one of ${WORK_TREE_MODES.join(', ')}\n`);
  process.exit(2);
}
const CASES = Number(values.cases);
const NAIVE = Math.min(Number(values.naive), CASES);
const AUDIT = Math.min(Number(values.audit), CASES);
for (const [flag, n] of [['--cases', CASES], ['--naive', NAIVE], ['--audit', AUDIT]] as const) {
  if (!Number.isInteger(n) || n < (flag === '--cases' ? 1 : 0)) {
    process.stderr.write(`bench packages: ${flag} must be a whole number${flag === '--cases' ? ' ≥ 1' : ''}\n`);
    process.exit(2);
  }
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** 50,000 commits on main (every 100th a merged topic), each changing one of 650 small source files. */
function generated(): Promise<string> {
  return cachedFastImportRepo(
    'r2v-bench-packages-v1.git',
    (w) => {
      const body = (path: string) => (mark: number) => `// ${path}, revision ${mark}\n${'export const value = compute(input, options);\n'.repeat(4 + (mark % 20))}`;
      const commit = (ref: string, msg: string, from: number, merge: number | null, path: string): number => w.commit(ref, msg, from, merge, path, body(path));
      let tip = 0;
      for (let i = 1; w.count < 50_000; i++) {
        if (i % 100 === 0) {
          const t1 = commit(`refs/heads/topic-${i}`, `Topic ${i}: rework the parser`, tip, null, `src/topic/${i % 40}.ts`);
          tip = commit('refs/heads/main', `Merge pull request #${i} from dev/topic-${i}`, tip, t1, `src/core/${i % 10}.ts`);
        } else {
          tip = commit('refs/heads/main', `Change ${i}: adjust module ${i % 50}\n\nA longer explanation of change ${i}.\n`, tip, null, `src/${i % 50}/${i % 13}.ts`);
        }
      }
    },
    { repack: true },
  );
}

/** Bytes on disk under `dir` by category, every inode counted once (hard links shared), directories included: what `du` counts. */
function diskUsage(dir: string): { total: number; objects: number; worktrees: number; history: number; other: number } {
  const seen = new Set<string>();
  const sum = { total: 0, objects: 0, worktrees: 0, history: 0, other: 0 };
  const walk = (abs: string, rel: string): void => {
    for (const e of readdirSync(abs)) {
      const p = join(abs, e);
      const r = rel ? `${rel}/${e}` : e;
      const st = lstatSync(p);
      const bytes = st.blocks * 512;
      if (st.isDirectory()) {
        // Directories take blocks too (du counts them): with the other files.
        sum.total += bytes;
        sum.other += bytes;
        walk(p, r);
        continue;
      }
      const key = `${st.dev}:${st.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      sum.total += bytes;
      if (/\/history\/[^/]+$/.test(r) || (r.startsWith(`${OBJECTS_DIR}/`) && r.endsWith('/history.jsonl'))) sum.history += bytes;
      else if (r.startsWith(`${OBJECTS_DIR}/`) || /\/repo\/\.git\/objects\//.test(r)) sum.objects += bytes;
      else if (/\/repo\//.test(r) && !/\/repo\/\.git\//.test(r)) sum.worktrees += bytes;
      else sum.other += bytes;
    }
  };
  walk(dir, '');
  return sum;
}

async function main(): Promise<void> {
  const gitDir = values['git-dir'] ? resolve(values['git-dir']) : await generated();
  const branch = values.branch ?? (await defaultBranchOf(gitDir));
  if (!branch) throw new Error(`${gitDir}: HEAD names no branch; pass --branch`);
  const line = (await runGit(gitDir, ['rev-list', '--first-parent', '--reverse', `refs/heads/${branch}`, '--'])).stdout.split('\n').filter(Boolean);
  const all = Number((await runGit(gitDir, ['rev-list', '--count', '--all'])).stdout.trim());
  console.log(`repository: ${gitDir} — ${all.toLocaleString('en-US')} commits in the mirror, ${line.length.toLocaleString('en-US')} on the first-parent line of ${branch}`);
  console.log(`work tree: ${WORK_TREE}; layers of ${LAYER} first-parent commits; load average at the start: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  const opts = { workTree: WORK_TREE, layerCommits: LAYER };

  // Cutoffs: reports spread over the newer 80% of the first-parent line, in random packaging order.
  const random = seededRandom(19);
  const positions = Array.from({ length: CASES }, (_, i) => Math.floor(line.length * (0.2 + (0.8 * (i + 1)) / CASES)) - 1);
  const records = positions.map((pos, i) =>
    BackwardManifestRecord.parse({
      task: 'backward', case_id: `bench_repo__${i + 1}__${String(i + 1).padStart(8, '0')}`, repo: 'bench/repo', number: i + 1,
      report: `Report ${i + 1}: the parser rejects valid input since a recent change.\n`, report_time: '2024-01-02T00:00:00Z',
      default_branch: branch, cutoff: line[pos]!, gold: line[Math.max(0, pos - 5)]!, parent: null, history_window: 5, checks: {}, digests: { cutoff_tree: null },
    }),
  );
  const order = records.map((r) => ({ r, k: random() })).sort((a, b) => a.k - b.k).map((x) => x.r);
  const newest = records[records.length - 1]!;

  const root = mkdtempSync(join(tmpdir(), 'r2v-bench-packages-'));
  try {
    // One package alone (the newest cutoff, the largest), layers and all; and the same package
    // with one whole pack and one history part (the smallest one package can be).
    const single = join(root, 'single');
    let t0 = performance.now();
    await packageBackward(newest, gitDir, single, opts);
    const singleMs = performance.now() - t0;
    const one = diskUsage(single);
    const parts = (u: ReturnType<typeof diskUsage>): string => `objects ${mb(u.objects)}, work tree ${mb(u.worktrees)}, history ${mb(u.history)}, other ${mb(u.other)}`;
    console.log(`one package (newest cutoff) alone: ${mb(one.total)} in ${(singleMs / 1000).toFixed(1)} s (${parts(one)})`);
    const wholeDir = join(root, 'single-whole');
    t0 = performance.now();
    await packageBackward(newest, gitDir, wholeDir, { ...opts, objects: null });
    const wholeMs = performance.now() - t0;
    const whole = diskUsage(wholeDir);
    console.log(`the same package with one whole pack: ${mb(whole.total)} in ${(wholeMs / 1000).toFixed(1)} s (${parts(whole)})`);
    rmSync(wholeDir, { recursive: true, force: true });

    // All of them, sharing layers.
    const shared = join(root, 'shared');
    t0 = performance.now();
    for (const [i, r] of order.entries()) {
      await packageBackward(r, gitDir, shared, opts);
      if ((i + 1) % 10 === 0) process.stderr.write(`  shared: ${i + 1}/${CASES} packages, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
    const sharedMs = performance.now() - t0;
    const total = diskUsage(shared);
    console.log(
      `${CASES} packages, shared layers: ${mb(total.total)} in ${(sharedMs / 1000).toFixed(1)} s (${(sharedMs / CASES / 1000).toFixed(2)} s/package); ` +
        `objects ${mb(total.objects)}, work trees ${mb(total.worktrees)}, history ${mb(total.history)}, other ${mb(total.other)}`,
    );
    // Cross-check with du, which also counts every inode once.
    const du = await execa('du', ['-sk', shared], { reject: false });
    if (du.exitCode === 0) console.log(`du -sk of the set: ${mb(Number(du.stdout.split('\t')[0]) * 1024)}`);

    // The naive layout on a sample: one whole pack per package.
    let naivePer = { disk: 0, ms: 0, objects: 0 };
    if (NAIVE > 0) {
      const naive = join(root, 'naive');
      const sample = order.slice(0, NAIVE);
      t0 = performance.now();
      for (const r of sample) await packageBackward(r, gitDir, naive, { ...opts, objects: null });
      const ms = performance.now() - t0;
      const d = diskUsage(naive);
      naivePer = { disk: d.total / NAIVE, ms: ms / NAIVE, objects: d.objects / NAIVE };
      console.log(
        `naive (one whole pack and history part per package), ${NAIVE}-package sample: ${mb(naivePer.disk)} and ${(naivePer.ms / 1000).toFixed(2)} s per package ` +
          `(objects ${mb(naivePer.objects)}); extrapolated to ${CASES}: ${mb(naivePer.disk * CASES)}, ${((naivePer.ms * CASES) / 1000).toFixed(0)} s`,
      );
    }

    // Audit a sample of the shared packages (every check of `r2v package audit`).
    const findings: string[] = [];
    const audited = [newest, ...order.slice(0, Math.max(0, AUDIT - 1))].slice(0, AUDIT);
    for (const r of audited) {
      const g = JSON.parse(readFileSync(join(shared, GRADING_DIR, `${r.case_id}.json`), 'utf8')) as BackwardGrading;
      findings.push(...(await auditBackward(join(shared, r.case_id), r.case_id, g)));
    }
    if (AUDIT > 0) console.log(`audit of ${AUDIT} shared packages: ${findings.length} findings${findings.length > 0 ? `\n  ${findings.slice(0, 10).join('\n  ')}` : ''}`);

    const ratio = total.total / one.total;
    const wholeRatio = total.total / whole.total;
    const objectRatio = total.objects / one.objects;
    const met = (x: number): string => (x <= 3 ? 'met' : 'NOT met');
    console.log(`ratio: ${CASES} packages take ${ratio.toFixed(2)}x one package's disk built alone (goal <= 3x: ${met(ratio)}); objects alone ${objectRatio.toFixed(2)}x`);
    console.log(`ratio against that package with one whole pack (the smallest it can be): ${wholeRatio.toFixed(2)}x (<= 3x: ${met(wholeRatio)})`);
    if (NAIVE > 0) {
      console.log(
        `against the naive layout: ${((naivePer.disk * CASES) / total.total).toFixed(1)}x less disk, ${((naivePer.objects * CASES) / total.objects).toFixed(1)}x less for objects; ` +
          `the naive layout takes ${((naivePer.ms * CASES) / sharedMs).toFixed(2)}x the time`,
      );
    }
    console.log(`work tree: ${WORK_TREE}; load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    if (findings.length > 0) process.exitCode = 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
