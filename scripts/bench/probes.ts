/**
 * Benchmark of transplanted-test probes at scale: one generated Node repository with N
 * regressions, each fixed by a commit that adds a test; every case's probe applies the fix's test
 * at gold's parent and gold, installs the dependencies (`npm ci --offline` of a vendored package,
 * a real install without network) and runs the test. Measured twice in the same run: with the
 * setup cache (installs once per lockfile digest, then copies node_modules) and without it (the
 * naive way: every state installs). Prints the wall time per probe and the cache's saving.
 *
 *   npm run bench -- probes [--probes 50] [--repeats 1]
 */
import { execa } from 'execa';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { History, type Author } from '../world/history.js';
import { replayTransplanted } from '../../src/probe/transplant.js';
import { toAnyProbeSpec, type TransplantedSpec } from '../../src/probe/spec.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`bench probes: --${name} ${process.argv[i + 1]}: must be a positive integer\n`);
    process.exit(2);
  }
  return n;
}

const PROBES = option('probes', 50);
const REPEATS = option('repeats', 1);
const AUTHOR: Author = { name: 'Bench Author', email: 'bench@example.org' };

/** A vendored dependency of 200 small modules, and the lockfile npm writes for it. */
async function dependencyFiles(scratch: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const names: string[] = [];
  for (let k = 0; k < 200; k += 1) {
    names.push(`m${k}`);
    files[`vendor/helpers/lib/m${k}.js`] = `module.exports = (x) => x + ${k};\n`;
  }
  files['vendor/helpers/package.json'] = '{"name": "helpers", "version": "1.0.0", "main": "index.js"}\n';
  files['vendor/helpers/index.js'] = `module.exports = { ${names.map((n) => `${n}: require('./lib/${n}')`).join(', ')} };\n`;
  files['package.json'] = '{"name": "bench-app", "version": "1.0.0", "private": true, "dependencies": {"helpers": "file:vendor/helpers"}}\n';
  for (const [p, text] of Object.entries(files)) {
    await mkdir(join(scratch, p, '..'), { recursive: true });
    await writeFile(join(scratch, p), text);
  }
  await execa('npm', ['install', '--install-links', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: scratch, env: { HOME: scratch } });
  files['package-lock.json'] = await readFile(join(scratch, 'package-lock.json'), 'utf8');
  return files;
}

const good = (i: number): string => `const { m${i % 200} } = require('helpers');\nmodule.exports = (x) => m${i % 200}(x) - ${i % 200};\n`;
const bad = (i: number): string => `const { m${i % 200} } = require('helpers');\nmodule.exports = (x) => m${i % 200}(x) + 1;\n`;
const test = (i: number): string =>
  `const assert = require('node:assert');\nconst f = require('../lib/f${i}');\nassert.strictEqual(f(${i}), ${i});\n`;

/** One repository: per case a regression (gold) in lib/f<i>.js and a fix that adds test/f<i>.test.js. */
async function buildRepo(root: string): Promise<{ gitDir: string; cases: { gold: string; fix: string }[] }> {
  const h = new History('main');
  let time = Date.UTC(2024, 0, 1) / 1000;
  const commit = (message: string, files: Record<string, string | null>): number => h.commit('main', { message, author: AUTHOR, time: (time += 600), files });
  const base: Record<string, string> = await dependencyFiles(await mkdtemp(join(tmpdir(), 'r2v-bench-deps-')));
  for (let i = 0; i < PROBES; i += 1) base[`lib/f${i}.js`] = good(i);
  commit('start', base);
  const marks: { gold: number; fix: number }[] = [];
  for (let i = 0; i < PROBES; i += 1) {
    commit(`docs ${i}`, { [`docs/${i}.md`]: `note ${i}\n` });
    const gold = commit(`rework f${i}`, { [`lib/f${i}.js`]: bad(i) });
    const fix = commit(`fix f${i} and test it`, { [`lib/f${i}.js`]: good(i), [`test/f${i}.test.js`]: test(i) });
    marks.push({ gold, fix });
  }
  const gitDir = join(root, 'repo.git');
  await h.write(gitDir);
  return { gitDir, cases: marks.map((m) => ({ gold: h.sha(m.gold), fix: h.sha(m.fix) })) };
}

function specOf(i: number, fix: string): TransplantedSpec {
  return toAnyProbeSpec({
    kind: 'transplanted', fix: { sha: fix, pull: null }, tests: [`test/f${i}.test.js`], test_command: 'node {tests}',
    setup: ['npm ci --offline --install-links --no-audit --no-fund --ignore-scripts'], setup_cache: ['node_modules'],
    timeout_s: 300, repeats: REPEATS,
  }, `bench case ${i}`) as TransplantedSpec;
}

interface Pass {
  readonly ms: number;
  readonly verified: number;
  readonly installs: number;
}

async function runAll(gitDir: string, cases: { gold: string; fix: string }[], workRoot: string, cacheDir: string | null): Promise<Pass> {
  let verified = 0;
  let installs = 0;
  const t0 = performance.now();
  for (const [i, c] of cases.entries()) {
    const out = await replayTransplanted({
      gitDir, gold: c.gold, spec: specOf(i, c.fix), workRoot, ...(cacheDir ? { setupCache: { dir: cacheDir, repo: 'bench/app' } } : {}),
    });
    if (!out.applicable) throw new Error(`case ${i}: not applicable: ${out.notApplicable.detail}`);
    if (out.result.boundary === 'verified') verified += 1;
    else throw new Error(`case ${i}: ${out.result.boundary} (${out.result.reason}): ${out.result.parent.why} / ${out.result.gold.why}`);
    for (const s of [out.result.parent, out.result.gold]) if (s.setup.some((x) => x.cachedKey === undefined)) installs += 1;
    if (!process.stderr.isTTY) continue;
    process.stderr.write(`\r${cacheDir ? 'cache on ' : 'cache off'}: ${i + 1}/${cases.length}`);
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  return { ms: performance.now() - t0, verified, installs };
}

const root = await mkdtemp(join(tmpdir(), 'r2v-bench-probes-'));
try {
  const t0 = performance.now();
  const { gitDir, cases } = await buildRepo(root);
  console.log(`repository: ${cases.length} regressions, each fixed by a commit that adds a test; generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`each probe: 2 states (gold's parent, gold), setup "npm ci --offline" of a 200-module vendored package, ${REPEATS} test run(s) per state`);
  const on = await runAll(gitDir, cases, join(root, 'work-on'), join(root, 'cache'));
  const off = await runAll(gitDir, cases, join(root, 'work-off'), null);
  const per = (p: Pass): string => `${(p.ms / cases.length).toFixed(0)} ms/probe`;
  console.log(`setup cache on : ${(on.ms / 1000).toFixed(1)} s total, ${per(on)}, ${on.installs} install(s), ${on.verified}/${cases.length} verified`);
  console.log(`setup cache off: ${(off.ms / 1000).toFixed(1)} s total, ${per(off)}, ${off.installs} installs, ${off.verified}/${cases.length} verified (naive: every state installs)`);
  console.log(`cache saving: ${(((off.ms - on.ms) / off.ms) * 100).toFixed(0)}% of the wall time (${(off.ms / on.ms).toFixed(2)}x faster)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
