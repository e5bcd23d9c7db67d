/**
 * Benchmark of the routing evaluator on the "repository prior" workload: every path of a
 * generated 100,000-file tree is routed as its own one-path change against 50 workflows.
 * Compiled evaluator (patterns compiled once to anchored regexes) vs a naive evaluator that
 * calls minimatch(path, pattern, { dot: true }) for every pattern and path.
 *
 *   node --import tsx scripts/bench/route.ts
 */
import { pathToFileURL } from 'node:url';
import { Minimatch, minimatch } from 'minimatch';
import { seededRandom } from '../../src/util/random.js';
import { compileWorkflows, DEFAULT_TYPES, parseWorkflow, type RouteContext, type TriggerSpec, type WorkflowFile } from '../../src/routing/index.js';

const TREE_SIZE = 100_000;
const NAIVE_SAMPLE_EVERY = 20; // the naive run sees every 20th path (5,000 paths), then is extrapolated
const ROUNDS = 3;
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
function naiveActivated(workflows: readonly { path: string; triggers: readonly TriggerSpec[] }[], changed: readonly string[], ctx: RouteContext): string[] {
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

function main(): void {
  const t0 = process.hrtime.bigint();
  const tree = generateTree(TREE_SIZE);
  const files = generateWorkflows();
  const parsed = files.map((f) => {
    const p = parseWorkflow(f.text);
    if (!p.ok) throw new Error(`${f.path}: ${p.reason}`);
    return { path: f.path, triggers: p.triggers };
  });
  const perPath = pathPatternCount(parsed.map((p) => p.triggers));
  console.log(`route bench: ${tree.length} paths, ${files.length} workflows, ${perPath} path patterns; checks = paths x path patterns, rates per CPU second (setup ${seconds(t0).toFixed(2)} s)`);

  const compiled = compileWorkflows(files);
  for (let i = 0; i < 30_000; i++) compiled.activatedFor([tree[i]!], CTX); // warm-up
  let activations = 0;
  // Best of ROUNDS: CPU time on a shared machine varies from run to run.
  let compiledCpu = Infinity;
  let compiledWall = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    activations = 0;
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage();
    for (const path of tree) activations += compiled.activatedFor([path], CTX).length;
    compiledCpu = Math.min(compiledCpu, cpuSeconds(c1));
    compiledWall = Math.min(compiledWall, seconds(t1));
  }
  const compiledRate = (tree.length * perPath) / compiledCpu;
  console.log(`compiled: ${tree.length} one-path changes in ${compiledCpu.toFixed(3)} s CPU (${compiledWall.toFixed(3)} s wall), ${(compiledRate / 1e6).toFixed(1)} M checks/s, ${activations} activations (best of ${ROUNDS})`);

  const sample = tree.filter((_, i) => i % NAIVE_SAMPLE_EVERY === 0);
  for (let i = 1; i < 20_000; i += 20) naiveActivated(parsed, [tree[i]!], CTX); // warm-up
  let agree = 0;
  let naiveCpu = Infinity;
  let naiveWall = Infinity;
  let naiveResults: string[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t2 = process.hrtime.bigint();
    const c2 = process.cpuUsage();
    naiveResults = sample.map((p) => naiveActivated(parsed, [p], CTX));
    naiveCpu = Math.min(naiveCpu, cpuSeconds(c2));
    naiveWall = Math.min(naiveWall, seconds(t2));
  }
  for (let i = 0; i < sample.length; i++) {
    if (JSON.stringify(naiveResults[i]) === JSON.stringify(compiled.activatedFor([sample[i]!], CTX))) agree++;
  }
  const naiveRate = (sample.length * perPath) / naiveCpu;
  console.log(`naive minimatch: sampled ${sample.length} of ${tree.length} paths (every ${NAIVE_SAMPLE_EVERY}th) in ${naiveCpu.toFixed(3)} s CPU (${naiveWall.toFixed(3)} s wall), ${(naiveRate / 1e6).toFixed(3)} M checks/s (best of ${ROUNDS}); extrapolated to all paths: ${(naiveCpu * NAIVE_SAMPLE_EVERY).toFixed(1)} s CPU`);
  console.log(`agreement on the sample: ${agree}/${sample.length} paths route to the same workflows`);
  console.log(`ratio compiled/naive: ${(compiledRate / naiveRate).toFixed(0)}x (targets: >= 50x and >= 10 M checks/s)`);

  // minimatch() keeps the last 256 compiled patterns internally, so the naive run above does not
  // recompile per check. For reference: compiling every check (new Minimatch per call).
  const small = tree.filter((_, i) => i % 500 === 0);
  const c3 = process.cpuUsage();
  for (const path of small) {
    for (const w of parsed) {
      for (const t of w.triggers) {
        for (const p of [...(t.filters.paths ?? []), ...(t.filters['paths-ignore'] ?? [])]) {
          new Minimatch(p.startsWith('!') ? p.slice(1) : p, { dot: true }).match(path);
        }
      }
    }
  }
  const uncachedRate = (small.length * perPath) / cpuSeconds(c3);
  console.log(`for reference, minimatch compiled per check (no cache), ${small.length} paths: ${(uncachedRate / 1e6).toFixed(3)} M checks/s; compiled is ${(compiledRate / uncachedRate).toFixed(0)}x that`);
}

// Run when executed directly; importing the module (for its generators) runs nothing.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
