/**
 * `npm run demo`: the whole pipeline on the bundled offline sample world, through the real code
 * paths — octokit over HTTP to the local fake GitHub on 127.0.0.1, real git mirrors, every stage,
 * probes, exports, packages and rubric scaffolds — then a summary. The workspace stays under data/demo/.
 */
import { mkdirSync, rmSync, writeFileSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import YAML from 'yaml';
import { generateWorld } from './world/index.js';
import type { SampleWorld } from './world/types.js';
import { toFakeWorld } from './world/fake-world.js';
import { startFakeGitHub } from '../src/github/fake-server.js';
import { pathToFileURL } from 'node:url';
import { ensureBuild } from './build.mjs';
import { openStore } from '../src/store/db.js';
import { captureStream as capture } from '../src/util/capture.js';

const ROOT = resolve(import.meta.dirname, '..');

/** The compiled CLI (dist/), built first when stale: the demo runs what `bin/r2v.js` runs. */
async function compiledCli(): Promise<typeof import('../src/cli.js')> {
  await ensureBuild();
  return (await import(pathToFileURL(join(ROOT, 'dist/cli.js')).href)) as typeof import('../src/cli.js');
}
const TOKEN_ENV = 'R2V_DEMO_TOKEN';

/** The demo's token: a variable name and a value that is not a secret (the fake GitHub takes any). */
export const DEMO_ENV: Readonly<Record<string, string>> = { [TOKEN_ENV]: 'demo-token-not-a-secret-0000' };

/** The config of a run over the sample world served at `apiUrl`; data_dir is the config's directory. */
export function demoConfigText(world: SampleWorld, apiUrl: string): string {
  const config = {
    github: { api_url: apiUrl, token_env: TOKEN_ENV, discover_mode: 'sync', max_retries: 2 },
    data_dir: '.',
    concurrency: 2,
    repos: world.repos.map((r) => ({
      name: r.name,
      git_url: r.gitDir,
      ...(r.testCommand ? { test_command: r.testCommand } : {}),
      ...(r.testGlobs ? { test_globs: r.testGlobs } : {}),
    })),
    pairs: { window_days: 3, base: 'newer', repeats: 2 },
  };
  return `# Written by npm run demo: the sample world served by a local fake GitHub.\n${YAML.stringify(config)}`;
}

/**
 * Writes the world's probe specs for the cases the database at `dbPath` has resolved into
 * `<dataDir>/probes/<case-id>.yaml` (what a researcher does between the two halves of a run).
 * Returns how many were written.
 */
export function installDemoProbes(world: SampleWorld, dbPath: string, dataDir: string): number {
  const store = openStore(dbPath);
  try {
    const cases = store.backward.resolvedCases();
    mkdirSync(join(dataDir, 'probes'), { recursive: true });
    let n = 0;
    for (const p of world.probes) {
      const c = cases.find((x) => x.repo === p.repo && x.number === p.number);
      if (c) {
        writeFileSync(join(dataDir, 'probes', `${c.caseId}.yaml`), YAML.stringify(p.spec));
        n += 1;
      }
    }
    return n;
  } finally {
    store.close();
  }
}

export interface DemoOptions {
  readonly root?: string;
  readonly workspace?: string;
  readonly manifests?: string;
  readonly quiet?: boolean;
  readonly log?: (line: string) => void;
}

export interface DemoResult {
  readonly workspace: string;
  readonly manifests: string;
  readonly summary: string;
  readonly auditOk: boolean;
  readonly preflightOk: boolean;
}

/** The CLI of a workspace whose config is `<workspace>/r2v.config.yaml`; throws on an exit other than 0 or 3. */
type DemoCli = (args: string[], opts?: { stdout?: Writable }) => Promise<number>;

async function workspaceCli(workspace: string, quiet: boolean): Promise<DemoCli> {
  const { runCli } = await compiledCli();
  const configPath = join(workspace, 'r2v.config.yaml');
  const env = { ...process.env, ...DEMO_ENV };
  return async (args, opts = {}) => {
    const code = await runCli(['--config', configPath, ...(quiet ? ['--quiet'] : []), ...args], {
      io: { env, cwd: workspace, stdout: opts.stdout ?? process.stderr, stderr: process.stderr, isTTY: false },
    });
    if (code !== 0 && code !== 3) throw new Error(`r2v ${args.join(' ')} exited ${code}`);
    return code;
  };
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const root = options.root ?? ROOT;
  const workspace = options.workspace ?? join(root, 'data/demo');
  const manifests = options.manifests ?? join(root, 'manifests/demo');
  const say = options.log ?? ((line: string) => void process.stderr.write(`demo: ${line}\n`));
  const started = Date.now();

  rmSync(workspace, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  say(`generating the sample world in ${relative(root, workspace) || '.'}/world`);
  const world = await generateWorld(join(workspace, 'world'));

  const server = await startFakeGitHub(toFakeWorld(world));
  say(`fake GitHub listening on ${server.url}`);
  writeFileSync(join(workspace, 'r2v.config.yaml'), demoConfigText(world, server.url));
  const cli = await workspaceCli(workspace, options.quiet ?? false);

  try {
    say('running every stage up to screening');
    await cli(['run', '--until', 'screen']);
    // A researcher writes probes for the cases they want replayed: install the world's probes.
    installDemoProbes(world, join(workspace, 'r2v.db'), workspace);
    say('running the remaining stages (probes, pairs, admission)');
    await cli(['run', '--from', 'forward-screen']);
  } finally {
    await server.close();
  }
  if (server.unexpected.length > 0) say(`warning: ${server.unexpected.length} unexpected requests to the fake GitHub`);
  return exportDemo({ ...options, root, workspace, manifests, log: say }, started);
}

/**
 * The demo's second half on a workspace whose database the pipeline has filled (`<workspace>/r2v.db`,
 * its config beside it): manifests, pairs, packages and their audit, the Forward paired states,
 * every controlled variant, preflight, and the summary. `manifests` is emptied first.
 */
export async function exportDemo(options: DemoOptions & { workspace: string; manifests: string }, started = Date.now()): Promise<DemoResult> {
  const root = options.root ?? ROOT;
  const { workspace, manifests } = options;
  const say = options.log ?? ((line: string) => void process.stderr.write(`demo: ${line}\n`));
  const cli = await workspaceCli(workspace, options.quiet ?? false);
  rmSync(manifests, { recursive: true, force: true });
  say(`exporting manifests to ${relative(root, manifests)}`);
  await cli(['export', '--out', manifests]);
  await cli(['pairs', 'export', '--out', join(manifests, 'pairs')]);
  const packages = join(manifests, 'packages');
  await cli(['package', '--all', '--out', packages]);
  const audit = capture();
  const auditCode = await cli(['package', 'audit', packages], { stdout: audit.stream });
  // The evaluation protocol's inputs: paired states of the Forward cases, and every controlled variant, each audited.
  await cli(['forward-pairs', '--manifest', join(manifests, 'forward.jsonl'), '--out', manifests]);
  const variants: string[] = [];
  let variantsOk = true;
  for (const variant of ['metadata-only', 'symptom-ablated', 'no-issue', 'oracle-scope', 'paired-state']) {
    const task = variant === 'metadata-only' || variant === 'symptom-ablated' ? 'backward' : 'forward';
    const dir = join(manifests, 'variants', variant);
    const extra = variant === 'paired-state' ? ['--pairs', join(manifests, 'forward-pairs.jsonl')] : [];
    await cli(['package', '--all', '--manifest', join(manifests, `${task}.jsonl`), '--variant', variant, '--out', dir, ...extra]);
    const n = countPackages(dir);
    if (n === 0) {
      variants.push(`${variant} 0`);
      continue;
    }
    const code = await cli(['package', 'audit', dir], { stdout: capture().stream });
    variantsOk &&= code === 0;
    variants.push(`${variant} ${n}${code === 0 ? '' : ' (AUDIT FINDINGS)'}`);
  }
  const preflight: string[] = [];
  for (const task of ['backward', 'forward']) {
    const out = capture();
    const code = await cli(['preflight', '--manifest', join(manifests, `${task}.jsonl`)], { stdout: out.stream });
    preflight.push(`${task}: ${code === 0 ? 'pass' : 'FAIL'}`);
  }
  const statusOut = capture();
  await cli(['status', '--json'], { stdout: statusOut.stream });
  const summary = renderSummary({
    root,
    workspace,
    manifests,
    status: JSON.parse(statusOut.text()) as StatusJson,
    rejections: readJsonl(join(manifests, 'rejections.jsonl')) as RejectionLine[],
    candidates: readJsonl(join(manifests, 'candidates.jsonl')) as CandidateLine[],
    admitted: { backward: readJsonl(join(manifests, 'backward.jsonl')).length, forward: readJsonl(join(manifests, 'forward.jsonl')).length },
    pairsMeta: JSON.parse(readFileSync(join(manifests, 'pairs', 'meta.json'), 'utf8')) as PairsMeta,
    packages: countPackages(packages),
    rubrics: countRubrics(packages),
    audit: auditCode === 0 ? 'no findings' : `FINDINGS:\n${audit.text()}`,
    variants,
    preflight,
    seconds: (Date.now() - started) / 1000,
  });
  return { workspace, manifests, summary, auditOk: auditCode === 0 && variantsOk, preflightOk: preflight.every((p) => p.endsWith('pass')) };
}

interface StatusJson {
  stages: { name: string; total: number; done: number; rejected: number; failed: number; pending: number }[];
}
interface RejectionLine {
  task: string;
  reasons: { code: string; stage: string }[];
}
interface CandidateLine {
  task: string;
  blockers: { code: string; stage: string }[];
}
interface PairsMeta {
  counts?: { by_tier?: Record<string, number>; by_reason?: Record<string, number> };
  [k: string]: unknown;
}

function readJsonl(path: string): unknown[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
}

/** Rubric scaffolds under packages/grading/rubrics: written (rubric.json) and not written (oracle row only). */
function countRubrics(dir: string): { written: number; notWritten: number } {
  const root = join(dir, 'grading', 'rubrics');
  if (!existsSync(root)) return { written: 0, notWritten: 0 };
  const ids = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.'));
  const written = ids.filter((d) => existsSync(join(root, d.name, 'rubric.json'))).length;
  return { written, notWritten: ids.length - written };
}

function countPackages(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'grading').length;
}

function findCounts(meta: PairsMeta, key: 'by_tier' | 'by_reason'): Record<string, number> {
  const direct = meta.counts?.[key];
  if (direct) return direct;
  for (const v of Object.values(meta)) {
    if (v && typeof v === 'object' && key in (v as Record<string, unknown>)) return (v as Record<string, Record<string, number>>)[key]!;
  }
  return {};
}

export function renderSummary(input: {
  root: string; workspace: string; manifests: string; status: StatusJson; rejections: RejectionLine[]; candidates: CandidateLine[];
  admitted: { backward: number; forward: number }; pairsMeta: PairsMeta; packages: number; rubrics: { written: number; notWritten: number }; audit: string; variants: string[]; preflight: string[]; seconds: number;
}): string {
  const lines: string[] = [];
  const rel = (p: string) => relative(input.root, p) || '.';
  lines.push('', 'r2v demo: summary', '');
  lines.push(`${'stage'.padEnd(16)}${'items'.padStart(7)}${'passed'.padStart(8)}${'rejected'.padStart(10)}${'failed'.padStart(8)}`);
  for (const s of input.status.stages) {
    lines.push(`${s.name.padEnd(16)}${String(s.total).padStart(7)}${String(s.done).padStart(8)}${String(s.rejected).padStart(10)}${String(s.failed).padStart(8)}`);
  }
  const tiers = findCounts(input.pairsMeta, 'by_tier');
  lines.push('', `admitted: ${input.admitted.backward} Backward, ${input.admitted.forward} Forward; candidates: ${input.candidates.length}; pairs: ${Object.entries(tiers).map(([k, v]) => `${v} ${k}`).join(', ') || 'none'}`);
  const waiting = new Map<string, number>();
  for (const c of input.candidates) {
    for (const code of new Set(c.blockers.map((x) => `${c.task}:${x.code}`))) waiting.set(code, (waiting.get(code) ?? 0) + 1);
  }
  lines.push('', 'candidates wait for (cases, see candidates.jsonl):');
  for (const [code, n] of [...waiting].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) lines.push(`  ${code.padEnd(36)}${n}`);
  const byReason = new Map<string, number>();
  for (const r of input.rejections) {
    for (const code of new Set(r.reasons.map((x) => `${r.task}:${x.code}`))) byReason.set(code, (byReason.get(code) ?? 0) + 1);
  }
  for (const [code, n] of Object.entries(findCounts(input.pairsMeta, 'by_reason'))) byReason.set(`pairs:${code}`, n);
  lines.push('', 'rejection reasons (cases):');
  for (const [code, n] of [...byReason].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) lines.push(`  ${code.padEnd(36)}${n}`);
  lines.push('', `packages: ${input.packages} (audit: ${input.audit}); preflight: ${input.preflight.join(', ')}`);
  lines.push(`variant packages (each audited): ${input.variants.join(', ')}`);
  lines.push(`rubric scaffolds: ${input.rubrics.written} written, ${input.rubrics.notWritten} not written (the gold fails them)`);
  lines.push('', 'files:');
  lines.push(`  manifests   ${rel(input.manifests)}/{backward,forward,candidates,rejections}.jsonl (+ .meta.json)`);
  lines.push(`  pairs       ${rel(input.manifests)}/pairs/, forward paired states in ${rel(input.manifests)}/forward-pairs.jsonl`);
  lines.push(`  variants    ${rel(input.manifests)}/variants/<variant>/ (controlled package variants)`);
  lines.push(`  packages    ${rel(input.manifests)}/packages/ (grading data in packages/grading/, rubric scaffolds in packages/grading/rubrics/)`);
  lines.push(`  workspace   ${rel(input.workspace)}/ (config, r2v.db, mirrors, world, probes)`);
  lines.push('', 'explore:', `  npx r2v --config ${rel(input.workspace)}/r2v.config.yaml status`, `  npx r2v --config ${rel(input.workspace)}/r2v.config.yaml run --stage sanitize --force`);
  lines.push('', `finished in ${input.seconds.toFixed(1)} s`, '');
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  runDemo()
    .then((r) => {
      process.stdout.write(`${r.summary}\n`);
      if (!r.auditOk || !r.preflightOk) process.exitCode = 1;
    })
    .catch((error: unknown) => {
      process.stderr.write(`demo failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    });
}
