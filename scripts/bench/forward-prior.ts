/**
 * Forward repository prior: every tracked path of a generated 100,000-file tree routed as its own
 * one-path change against 50 workflows, with the workflows compiled once (what the forward-screen
 * stage does), against re-parsing the workflows for every path (route() per path), measured on a
 * sample in the same run; and the prior of a next base that reuses the one-path routes. Run: node --import tsx scripts/bench/forward-prior.ts
 */
import { performance } from 'node:perf_hooks';
import { memoizeOnePath, repositoryPrior } from '../../src/forward/prior.js';
import { compiledRouter } from '../../src/forward/router.js';
import { route } from '../../src/routing/index.js';

const PACKAGES = 46;
const PATHS = 100_000;
const SAMPLE = 200;

function workflows(): { path: string; text: string }[] {
  const files = [
    { path: '.github/workflows/lint.yml', text: 'on: pull_request\njobs:\n  l:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make lint\n' },
    { path: '.github/workflows/docs.yml', text: "on:\n  pull_request:\n    paths: ['docs/**', '**.md']\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make docs\n" },
    { path: '.github/workflows/py.yml', text: "on:\n  pull_request:\n    paths: ['**.py', '!**/fixtures/**']\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n" },
    { path: '.github/workflows/ts.yml', text: "on:\n  pull_request:\n    branches: [main]\n    paths-ignore: ['docs/**', '**.md']\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n" },
  ];
  for (let i = 0; i < PACKAGES; i += 1) {
    files.push({
      path: `.github/workflows/pkg-${i}.yml`,
      text: `on:\n  pull_request_target:\n    types: [opened, synchronize]\n    paths:\n      - 'packages/p${i}/**'\n      - '!packages/p${i}/**/*.md'\n      - 'shared/**'\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make p${i}\n`,
    });
  }
  return files;
}

function tree(): string[] {
  const out: string[] = [];
  const exts = ['ts', 'py', 'md', 'json'];
  for (let i = 0; out.length < PATHS; i += 1) {
    const r = i % 10;
    if (r === 0) out.push(`docs/section${i % 97}/page${i}.md`);
    else if (r === 1) out.push(`shared/lib${i % 13}/mod${i}.ts`);
    else out.push(`packages/p${i % PACKAGES}/src/dir${i % 31}/file${i}.${exts[i % exts.length]}`);
  }
  return out.sort();
}

const ctx = { event: 'pull_request', action: 'synchronize', base_branch: 'main' } as const;
const files = workflows();
const paths = tree();

let t = performance.now();
const activatedFor = compiledRouter(files, ctx);
const prior = repositoryPrior(paths, activatedFor);
const compiledMs = performance.now() - t;

// A later base with the same workflows and 1% new paths, reusing the one-path routes of the first.
const cache = new Map<string, readonly string[]>();
repositoryPrior(paths, memoizeOnePath(activatedFor, cache));
const nextBase = [...paths.slice(0, PATHS - 1000), ...Array.from({ length: 1000 }, (_, i) => `packages/p${i % PACKAGES}/src/new/file${i}.ts`)];
t = performance.now();
repositoryPrior(nextBase, memoizeOnePath(activatedFor, cache));
const memoMs = performance.now() - t;

const sample = paths.filter((_, i) => i % Math.floor(PATHS / SAMPLE) === 0).slice(0, SAMPLE);
t = performance.now();
for (const p of sample) route(files, [p], ctx);
const naiveMs = performance.now() - t;

const compiledRate = PATHS / (compiledMs / 1000);
const naiveRate = sample.length / (naiveMs / 1000);
console.log(`forward prior: ${PATHS} paths x ${files.length} workflows, prior set of ${prior.workflows.length} workflows (${prior.count} paths, ${prior.sets} sets)`);
console.log(`compiled once:        ${compiledMs.toFixed(0)} ms, ${Math.round(compiledRate)} paths/s`);
console.log(`next base, memoized:  ${memoMs.toFixed(0)} ms, ${Math.round(PATHS / (memoMs / 1000))} paths/s`);
console.log(`parsed per path:      ${naiveMs.toFixed(0)} ms for ${sample.length} paths, ${Math.round(naiveRate)} paths/s`);
console.log(`ratio: ${(compiledRate / naiveRate).toFixed(1)}x`);
