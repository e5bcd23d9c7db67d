/**
 * Benchmark of the routing evaluator in changed paths per CPU second, on three workloads: every
 * path of a generated 100,000-file tree as its own one-path change in sorted order, the same in
 * shuffled order, and multi-path change sets (the paths of each non-merge commit of a real
 * repository's history with --git-dir, routed against its own workflows at HEAD into its default
 * branch, and against the generated ones; generated clustered sets otherwise, so the bench runs
 * without any repository). Compiled evaluator (patterns compiled once, a fresh router per round)
 * vs a naive evaluator calling minimatch(path, pattern, { dot: true }) for every pattern and path
 * (minimatch pinned to an exact version in package.json; its version is printed). After the
 * timing, the compiled answer of every change set is checked against the reference evaluator
 * (`route`, the explained section 18 evaluation) and, on the naive sample, against minimatch; any
 * difference fails the run (exit 1). A bad --git-dir or --prs ends the run with one line (exit 2).
 *
 *   node --import tsx scripts/bench/route.ts [--git-dir PATH] [--prs N]
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Minimatch, minimatch } from 'minimatch';
import { seededRandom } from '../../src/util/random.js';
import { compileWorkflows, DEFAULT_TYPES, DIFF_LIMIT, parseWorkflow, type RouteContext, type TriggerSpec, type WorkflowFile } from '../../src/routing/index.js';

const TREE_SIZE = 100_000;
const NAIVE_SAMPLE_EVERY = 20; // the naive run sees every 20th path (5,000 paths), then is extrapolated
/** Timed rounds per side: at least MIN_ROUNDS, then more while the side has spent less than MIN_CPU_SECONDS in all (at most MAX_ROUNDS); the best round counts. */
const MIN_ROUNDS = 3;
const MAX_ROUNDS = 25;
const MIN_CPU_SECONDS = 0.5;

/** Runs `round` (after `prepare`, untimed) as told by MIN_ROUNDS, MAX_ROUNDS and MIN_CPU_SECONDS; returns the best and the median CPU time and the number of rounds. */
function timedRounds(round: () => void, prepare?: () => void): { best: number; median: number; rounds: number } {
  const times: number[] = [];
  let spent = 0;
  while (times.length < MIN_ROUNDS || (spent < MIN_CPU_SECONDS && times.length < MAX_ROUNDS)) {
    prepare?.(); // outside the timing
    const c = process.cpuUsage();
    round();
    const cpu = cpuSeconds(c);
    times.push(cpu);
    spent += cpu;
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 === 1 ? times[mid]! : (times[mid - 1]! + times[mid]!) / 2;
  return { best: times[0]!, median, rounds: times.length };
}
const CTX: RouteContext = { event: 'pull_request', action: 'synchronize', base_branch: 'main' };

const PACKAGES = Array.from({ length: 20 }, (_, i) => `pkg${String(i).padStart(2, '0')}`);
const SERVICES = Array.from({ length: 10 }, (_, i) => `svc${i}`);

export function generateTree(size: number, seed = 42): string[] {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const dirs = ['src', 'src/core', 'src/util', 'src/api/v1', 'src/api/v2', 'test', 'test/fixtures', 'lib', 'internal/db', 'docs'];
  const exts = ['ts', 'ts', 'ts', 'tsx', 'js', 'go', 'py', 'rs', 'java', 'md', 'json', 'yml', 'txt', 'css'];
  const out = new Set<string>(['package.json', 'pnpm-lock.yaml', 'go.mod', 'go.sum', 'Cargo.toml', 'README.md', '.gitignore']);
  while (out.size < size) {
    const r = rand();
    const file = `${pick(['index', 'main', 'util', 'handler', 'model', 'view', 'README', 'config', 'helper', 'types'])}${Math.floor(rand() * 400)}.${pick(exts)}`;
    let path: string;
    if (r < 0.55) path = `packages/${pick(PACKAGES)}/${pick(dirs)}/${file}`;
    else if (r < 0.75) path = `services/${pick(SERVICES)}/${pick(dirs)}/${file}`;
    else if (r < 0.82) path = `docs/${pick(['guide', 'api', 'blog', 'ref/cli'])}/${file}`;
    else if (r < 0.9) path = `apps/web/${pick(['app', 'app/blog/[slug]', 'components', 'e2e'])}/${file}`;
    else if (r < 0.95) path = `proto/${pick(['v1', 'v2'])}/${file}`;
    else path = `${pick(['tools', 'scripts', 'examples', '.github/actions/setup', 'vendor/lib'])}/${file}`;
    out.add(path);
  }
  return [...out].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

const JOB = 'jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n';
const yamlList = (xs: readonly string[]): string => `[${xs.map((x) => `'${x}'`).join(', ')}]`;

/** 50 workflows in the style of a large monorepo. Patterns avoid `?`, `+` and `**` glued to text, where minimatch differs. */
export function generateWorkflows(): WorkflowFile[] {
  const files: WorkflowFile[] = [];
  const add = (name: string, on: string): void => void files.push({ path: `.github/workflows/${name}.yml`, text: `name: ${name}\non:\n${on}\n${JOB}` });
  for (const p of PACKAGES) {
    add(`test-${p}`, `  pull_request:\n    branches: [main, 'release/**']\n    paths: ${yamlList([`packages/${p}/**`, `!packages/${p}/**/*.md`, `!packages/${p}/docs/**`, 'package.json', 'pnpm-lock.yaml', `.github/workflows/test-${p}.yml`])}`);
  }
  for (const s of SERVICES) {
    add(`svc-${s}`, `  push:\n    branches: [main]\n  pull_request:\n    paths: ${yamlList([`services/${s}/**`, `!services/${s}/docs/**`, 'proto/**', 'go.mod', 'go.sum'])}`);
  }
  add('go', `  pull_request:\n    paths: ${yamlList(['**/*.go', 'go.mod', 'go.sum', '!vendor/**'])}`);
  add('python', `  pull_request:\n    paths: ${yamlList(['**/*.py', 'pyproject.toml', 'requirements*.txt'])}`);
  add('rust', `  pull_request:\n    paths: ${yamlList(['**/*.rs', 'Cargo.toml', 'Cargo.lock'])}`);
  add('java', `  pull_request:\n    paths: ${yamlList(['**/*.java', '**/pom.xml', '**/build.gradle'])}`);
  add('web', `  pull_request:\n    paths: ${yamlList(['apps/web/**', '!apps/web/e2e/**', 'package.json'])}`);
  add('e2e', `  pull_request:\n    paths: ${yamlList(['apps/web/e2e/**', 'apps/web/app/**'])}`);
  add('docs', `  pull_request:\n    paths: ${yamlList(['docs/**', '**/*.md', '!**/CHANGELOG.md'])}`);
  add('lint', `  pull_request:\n    paths-ignore: ${yamlList(['docs/**', '**/*.md', '**/*.txt'])}`);
  add('build', `  pull_request:\n    branches-ignore: [gh-pages]\n    paths-ignore: ${yamlList(['docs/**', 'examples/**', '**/*.md'])}`);
  add('css', `  pull_request:\n    paths: ${yamlList(['**/*.css', '**/*.scss'])}`);
  add('proto', `  pull_request_target:\n    types: [opened, synchronize]\n    paths: ${yamlList(['proto/**', '!proto/v1/**'])}`);
  add('labeler', `  pull_request_target:\n    paths-ignore: ${yamlList(['.github/**'])}`);
  add('actions', `  pull_request:\n    paths: ${yamlList(['.github/**', 'tools/**', 'scripts/**'])}`);
  add('vendor', `  pull_request:\n    paths: ${yamlList(['vendor/lib', 'vendor/lib/**'])}`);
  add('api-v2', `  pull_request:\n    paths: ${yamlList(['packages/*/src/api/v2/**', 'services/*/src/api/v2/**'])}`);
  add('fixtures', `  pull_request:\n    paths: ${yamlList(['**/test/fixtures/**'])}`);
  add('ts', `  pull_request:\n    paths: ${yamlList(['**/*.ts', '**/*.tsx', '!**/*.d.ts', 'tsconfig*.json'])}`);
  add('json', `  pull_request:\n    paths: ${yamlList(['**/*.json', '!**/package.json'])}`);
  add('release', `  push:\n    tags: ['v*']`);
  add('nightly', `  schedule:\n    - cron: '0 3 * * *'`);
  return files;
}

/** Path patterns of the PR triggers: the nominal checks per path. */
function pathPatternCount(triggers: readonly (readonly TriggerSpec[])[]): number {
  return triggers.flat().reduce((n, t) => n + (t.filters.paths?.length ?? 0) + (t.filters['paths-ignore']?.length ?? 0), 0);
}

/**
 * GitHub's `**` also matches when glued to other characters (`**.md`: any path ending in `.md`),
 * where minimatch reads a `**` that is not a whole path segment as `*`. The naive side is given
 * the glued forms in minimatch's own syntax, once, before any timing: a leading `**X` as `**\/*X`
 * and a trailing `X**` as `X*{,/**}`. Other differences (`?` and `+` as quantifiers, `**` glued in
 * the middle) are left as written: the agreement check shows them.
 */
export function toMinimatch(pattern: string): string {
  const negative = pattern.startsWith('!');
  let body = negative ? pattern.slice(1) : pattern;
  if (body.startsWith('**') && body.length > 2 && body[2] !== '/') body = `**/*${body.slice(2)}`;
  if (body.endsWith('**') && body.length > 2 && body[body.length - 3] !== '/' && body[body.length - 3] !== '*') body = `${body.slice(0, -2)}*{,/**}`;
  return negative ? `!${body}` : body;
}

/** The triggers as the naive side reads them: path patterns through `toMinimatch`. */
function forMinimatch(triggers: readonly TriggerSpec[]): TriggerSpec[] {
  return triggers.map((t) => {
    const filters = { ...t.filters };
    if (filters.paths) filters.paths = filters.paths.map(toMinimatch);
    if (filters['paths-ignore']) filters['paths-ignore'] = filters['paths-ignore'].map(toMinimatch);
    return { ...t, filters };
  });
}

/** Ordered last-match-wins walk with minimatch called per pattern (no compilation kept). */
function naiveIncluded(patterns: readonly string[], subject: string): boolean {
  let state = false;
  for (const p of patterns) {
    const negative = p.startsWith('!');
    if (minimatch(subject, negative ? p.slice(1) : p, { dot: true })) state = !negative;
  }
  return state;
}

/** The same routing decisions as section 18, with minimatch as the matcher. */
function naiveActivated(workflows: readonly { path: string; triggers: readonly TriggerSpec[] }[], changedPaths: readonly string[], ctx: RouteContext): string[] {
  const changed = changedPaths.slice(0, DIFF_LIMIT); // section 12: only the first 300 paths count
  const out: string[] = [];
  for (const w of workflows) {
    for (const t of w.triggers) {
      if (!(t.types ?? DEFAULT_TYPES).includes(ctx.action)) continue;
      const f = t.filters;
      if (f.branches && f.branches.length > 0 && !naiveIncluded(f.branches, ctx.base_branch)) continue;
      if (f['branches-ignore'] && naiveIncluded(f['branches-ignore'], ctx.base_branch)) continue;
      if (f.paths && !changed.some((c) => naiveIncluded(f.paths!, c))) continue;
      if (f['paths-ignore'] && changed.every((c) => naiveIncluded(f['paths-ignore']!, c))) continue;
      out.push(w.path);
      break;
    }
  }
  return out.sort();
}

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** CPU seconds (user + system) of this process since `start`: steadier than wall time on a shared machine. */
function cpuSeconds(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/** Fisher-Yates with the seeded generator. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const rand = seededRandom(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Change sets of a repository's history: the paths each non-merge commit touched (as a pull
 * request's change set), newest first, `count` of them with at least one path.
 */
export async function historyChanges(gitDir: string, count: number): Promise<string[][]> {
  const { runGit } = await import('../../src/git/runner.js');
  const r = await runGit(gitDir, ['log', '--no-merges', '--no-renames', '--name-only', '--format=%x00', `-n${count * 2}`, 'HEAD', '--']);
  return r.stdout.split('\0').map((block) => block.split('\n').filter((l) => l.length > 0)).filter((paths) => paths.length > 0).slice(0, count);
}

/** The short name of the branch HEAD points to (a mirror's default branch). */
export async function defaultBranch(gitDir: string): Promise<string> {
  const { runGit } = await import('../../src/git/runner.js');
  return (await runGit(gitDir, ['symbolic-ref', '--short', 'HEAD'])).stdout.trim();
}

/** The workflow files of a repository at HEAD. */
export async function workflowsAtHead(gitDir: string): Promise<WorkflowFile[]> {
  const { runGit } = await import('../../src/git/runner.js');
  const names = (await runGit(gitDir, ['ls-tree', '--name-only', 'HEAD', '.github/workflows/'])).stdout.split('\n').filter((n) => /\.ya?ml$/.test(n));
  const files: WorkflowFile[] = [];
  for (const name of names) files.push({ path: name, text: (await runGit(gitDir, ['cat-file', 'blob', `HEAD:${name}`])).stdout });
  return files;
}

/** Multi-path change sets from the generated tree: 1-40 paths clustered in a few directories, like a pull request. */
function generatedChanges(tree: readonly string[], count: number): string[][] {
  const rand = seededRandom(7);
  const out: string[][] = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(rand() * rand() * 40);
    const start = Math.floor(rand() * tree.length);
    const set = new Set<string>();
    while (set.size < n) set.add(tree[(start + Math.floor(rand() * 200) + (rand() < 0.2 ? Math.floor(rand() * tree.length) : 0)) % tree.length]!);
    out.push([...set]);
  }
  return out;
}

interface Measured {
  compiledPathsPerSec: number;
  /** Timed rounds: compiled, compiled on fresh strings, naive. */
  rounds: string;
  /** The ratio of the median rounds (compiled / naive, and on fresh strings / naive). */
  medianRatio: number;
  coldMedianRatio: number;
  /** The compiled side on fresh copies of the path strings each round. */
  coldPathsPerSec: number;
  naivePathsPerSec: number;
  /** Naive answers equal to the compiled ones, out of `sampled` change sets. */
  agree: number;
  sampled: number;
  /** Compiled answers equal to the reference evaluator's (`route`, explained), out of every change set. */
  agreeReference: number;
  total: number;
}

/**
 * Routes every change set with the compiled evaluator and a sample with the naive one; CPU-time
 * rates in paths/s, the best round of each side (see timedRounds). Both sides get the workflows parsed once,
 * outside the timing (the naive side its parsed triggers, the compiled side its compiled
 * patterns); each compiled round starts a fresh router for the context (built inside the
 * timing), so nothing one round learnt about paths is reused by the next. Both sides compute the
 * full answer of every change set they see. The rounds route the same string objects, so the
 * engine's own per-string state (a string's hash, its interned form) is warm after the warm-up,
 * for both sides. After the timing, the compiled answers of the last round are checked against
 * the reference evaluator on every change set and against the naive ones on the sample.
 */
function measure(
  files: readonly WorkflowFile[],
  parsed: readonly { path: string; triggers: readonly TriggerSpec[] }[],
  changes: readonly (readonly string[])[],
  ctx: RouteContext,
  naiveEvery: number,
  /** Reference answers by change set (paths joined by newlines), shared by workloads of the same workflows and context. */
  referenceAnswers = new Map<string, readonly string[]>(),
): Measured {
  const paths = changes.reduce((n, c) => n + c.length, 0);
  const compiled = compileWorkflows(files);
  const warm = compiled.routerFor(ctx); // warms the code (JIT), not the measured routers
  for (let i = 0; i < Math.min(changes.length, 20_000); i++) warm.activated(changes[i]!);
  const compiledResults: (readonly string[])[] = new Array<readonly string[]>(changes.length);
  const compiledRun = timedRounds(() => {
    const results = compiledResults;
    const router = compiled.routerFor(ctx);
    for (let i = 0; i < changes.length; i++) results[i] = router.activated(changes[i]!);
  });
  // The same rounds on fresh copies of the path strings (made before each round, outside the timing): nothing about a string is known to the engine yet, as for paths just read from git.
  let copies: string[][] = [];
  const coldRun = timedRounds(
    () => {
      const router = compiled.routerFor(ctx);
      for (let i = 0; i < copies.length; i++) router.activated(copies[i]!);
    },
    () => {
      copies = changes.map((change) => change.map((p) => Buffer.from(p, 'utf8').toString('utf8')));
    },
  );
  copies = [];
  const sampleIdx = changes.flatMap((_, i) => (i % naiveEvery === 0 ? [i] : []));
  const sample = sampleIdx.map((i) => changes[i]!);
  const samplePaths = sample.reduce((n, c) => n + c.length, 0);
  for (let i = 0; i < Math.min(sample.length, 500); i++) naiveActivated(parsed, sample[i]!, ctx); // warm-up
  let naiveResults: string[][] = [];
  const naiveRun = timedRounds(() => {
    naiveResults = sample.map((change) => naiveActivated(parsed, change, ctx));
  });
  let agree = 0;
  for (let k = 0; k < sample.length; k++) if (sameList(naiveResults[k]!, compiledResults[sampleIdx[k]!]!)) agree++;
  // Every change set against the reference evaluator (section 18 with explanations), on its own compiled copy, after the timing.
  const reference = compileWorkflows(files);
  let agreeReference = 0;
  for (let i = 0; i < changes.length; i++) {
    const key = changes[i]!.join('\n');
    let expected = referenceAnswers.get(key);
    if (expected === undefined) {
      expected = reference.route(changes[i]!, ctx).activated;
      referenceAnswers.set(key, expected);
    }
    if (sameList(expected, compiledResults[i]!)) agreeReference++;
  }
  return {
    compiledPathsPerSec: paths / compiledRun.best,
    coldPathsPerSec: paths / coldRun.best,
    naivePathsPerSec: samplePaths / naiveRun.best,
    medianRatio: (paths / compiledRun.median) / (samplePaths / naiveRun.median),
    coldMedianRatio: (paths / coldRun.median) / (samplePaths / naiveRun.median),
    rounds: `${compiledRun.rounds}/${coldRun.rounds}/${naiveRun.rounds}`,
    agree,
    sampled: sample.length,
    agreeReference,
    total: changes.length,
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The real repository's workload, read before any timing; undefined without --git-dir. A bad input ends the run with one line (exit 2). */
async function historyWorkload(gitDirArg: string | undefined, prs: number): Promise<{ gitDir: string; changes: string[][]; own: WorkflowFile[]; branch: string } | undefined> {
  if (gitDirArg === undefined) return undefined;
  const gitDir = resolve(gitDirArg);
  const { runGit } = await import('../../src/git/runner.js');
  const probe = await runGit(gitDir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => undefined);
  if (probe === undefined || probe.exitCode !== 0) usage(`--git-dir ${gitDirArg}: not a git repository with a commit at HEAD`);
  const own = await workflowsAtHead(gitDir);
  if (own.length === 0) usage(`--git-dir ${gitDirArg}: no workflow files in .github/workflows/ at HEAD`);
  const changes = await historyChanges(gitDir, prs);
  if (changes.length === 0) usage(`--git-dir ${gitDirArg}: no non-merge commit with changed paths at HEAD`);
  return { gitDir, changes, own, branch: await defaultBranch(gitDir) };
}

function usage(message: string): never {
  process.stderr.write(`route bench: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { 'git-dir'?: string; prs: string };
  try {
    ({ values } = parseArgs({ options: { 'git-dir': { type: 'string' }, prs: { type: 'string', default: '20000' } } }));
  } catch (error) {
    usage((error as Error).message);
  }
  const prs = Number(values.prs);
  if (!Number.isInteger(prs) || prs < 1) usage(`--prs ${values.prs}: not a positive whole number`);
  const history = await historyWorkload(values['git-dir'], prs);
  const minimatchVersion = (JSON.parse(readFileSync(new URL('../../node_modules/minimatch/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const t0 = process.hrtime.bigint();
  const tree = generateTree(TREE_SIZE);
  const files = generateWorkflows();
  const parse = (fs: readonly WorkflowFile[]) =>
    fs.flatMap((f) => {
      const p = parseWorkflow(f.text);
      return p.ok ? [{ path: f.path, triggers: forMinimatch(p.triggers) }] : [];
    });
  const parsed = parse(files);
  console.log(`route bench: ${fmtInt(tree.length)} generated paths, ${files.length} workflows, ${pathPatternCount(parsed.map((p) => p.triggers))} path patterns; naive side: minimatch ${minimatchVersion} per pattern and path (dot: true); rates are changed paths per CPU second, the best of ${MIN_ROUNDS}-${MAX_ROUNDS} rounds per side (more while a side has spent under ${MIN_CPU_SECONDS} s), a fresh router per compiled round (setup ${seconds(t0).toFixed(2)} s); load average at the start: ${loadLine()}`);
  let disagreements = 0;
  const ratios: number[] = [];
  const report = (name: string, m: Measured, ctx: RouteContext): void => {
    const ratio = m.compiledPathsPerSec / m.naivePathsPerSec;
    ratios.push(ratio);
    disagreements += m.sampled - m.agree + (m.total - m.agreeReference);
    console.log(
      `${name} (base ${ctx.base_branch}): compiled ${fmtInt(m.compiledPathsPerSec)} paths/s, naive ${fmtInt(m.naivePathsPerSec)} paths/s, ratio ${ratio.toFixed(1)}x (goal >= 50x; of the median rounds ${m.medianRatio.toFixed(1)}x); ` +
        `best of ${m.rounds} rounds; agreement with the reference evaluator ${fmtInt(m.agreeReference)}/${fmtInt(m.total)} change sets, with naive ${fmtInt(m.agree)}/${fmtInt(m.sampled)} sampled`,
    );
    console.log(`  the same on fresh copies of the path strings each round (nothing about them known to the engine): compiled ${fmtInt(m.coldPathsPerSec)} paths/s, ratio ${(m.coldPathsPerSec / m.naivePathsPerSec).toFixed(1)}x (of the median rounds ${m.coldMedianRatio.toFixed(1)}x)`);
  };
  const generatedAnswers = new Map<string, readonly string[]>();
  report('sorted one-path changes', measure(files, parsed, tree.map((p) => [p]), CTX, NAIVE_SAMPLE_EVERY, generatedAnswers), CTX);
  report('shuffled one-path changes', measure(files, parsed, shuffled(tree, 3).map((p) => [p]), CTX, NAIVE_SAMPLE_EVERY, generatedAnswers), CTX);

  if (history !== undefined) {
    const { gitDir, changes, own } = history;
    const ownParsed = parse(own);
    // The repository's own workflows are routed for pull requests into its default branch.
    const ownCtx: RouteContext = { ...CTX, base_branch: history.branch };
    const paths = changes.reduce((n, c) => n + c.length, 0);
    console.log(`history of ${gitDir}: ${fmtInt(changes.length)} change sets (non-merge commits at HEAD), ${fmtInt(paths)} paths, ${(paths / changes.length).toFixed(1)} per change; its own ${own.length} workflows at HEAD (${ownParsed.length} parsed)`);
    report('multi-path changes from the repository history, its own workflows', measure(own, ownParsed, changes, ownCtx, 10), ownCtx);
    report('multi-path changes from the repository history, the 50 generated workflows', measure(files, parsed, changes, CTX, 10), CTX);
  } else {
    const changes = generatedChanges(tree, prs);
    console.log(`multi-path changes: ${fmtInt(changes.length)} generated (pass --git-dir PATH to sample a real repository's history)`);
    report('multi-path changes (generated)', measure(files, parsed, changes, CTX, 10), CTX);
  }
  console.log(`lowest ratio ${Math.min(...ratios).toFixed(1)}x over ${ratios.length} workloads (goal >= 50x); load average at the end: ${loadLine()}`);
  if (disagreements > 0) {
    console.error(`route bench: the compiled answers differ from the reference or naive ones on ${disagreements} change sets`);
    process.exitCode = 1;
  }
}

/** The 1, 5 and 15 minute load averages and the core count: the figures vary with the machine's load. */
function loadLine(): string {
  return `${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`;
}

function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

// Run when executed directly; importing the module (for its generators) runs nothing.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
