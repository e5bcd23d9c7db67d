// Benchmark: the resolve stage at real sizes — 20,000 stored pull requests and a few hundred
// Backward threads of one repository, each resolved against its mirror (cutoff from the shared
// branch history, pull-request index read once per repository) — against the old per-item shape
// (every item reloads all pull requests from SQLite and scans them), measured in the same run.
//   node --import tsx scripts/bench/resolve-stage.ts [--git-dir PATH] [--branch NAME] [--items N] [--pulls N]
// The mirror is used read-only through a symlink in a temporary data directory (never fetched);
// without --git-dir the generated repository of the `history` benchmark is used.
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, symlink } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Config } from '../../src/config.js';
import { defaultBranchOf } from '../../src/git/history.js';
import { mirrorDir } from '../../src/git/mirror.js';
import { observeGitSpawns, runGit } from '../../src/git/runner.js';
import { silentLogger } from '../../src/log.js';
import { createStageContext } from '../../src/run/context.js';
import { attributeStage } from '../../src/stages/attribute.js';
import { resolveThread } from '../../src/backward/chain.js';
import { resolveStage } from '../../src/stages/resolve.js';
import type { StageContext } from '../../src/stages/types.js';
import { threadFromRows } from '../../src/backward/thread.js';
import { openStore } from '../../src/store/db.js';
import { seededRandom } from '../../src/util/random.js';

const { values } = parseArgs({
  options: {
    'git-dir': { type: 'string' },
    branch: { type: 'string' },
    items: { type: 'string', default: '300' },
    pulls: { type: 'string', default: '20000' },
    sample: { type: 'string', default: '20' },
  },
});
const ITEMS = Number(values.items);
const PULLS = Number(values.pulls);
const SAMPLE = Number(values.sample);
const REPO = 'bench/resolve';
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const hex40 = (random: () => number): string => Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');

async function main(): Promise<void> {
  const source = values['git-dir'] ? resolve(values['git-dir']) : join(tmpdir(), 'r2v-bench-history-v1.git');
  if (!existsSync(source)) throw new Error(`${source}: no repository (pass --git-dir, or run the history benchmark first to generate one)`);
  const branch = values.branch ?? (await defaultBranchOf(source));
  if (!branch) throw new Error(`${source}: HEAD names no branch; pass --branch`);
  const work = await mkdtemp(join(tmpdir(), 'r2v-bench-resolve-stage-'));
  try {
    const dataDir = join(work, 'data');
    await mkdir(join(dataDir, 'mirrors'), { recursive: true });
    await symlink(source, mirrorDir(dataDir, REPO));
    const store = openStore(join(work, 'r2v.db'));
    const random = seededRandom(20);
    const line = (await runGit(source, ['rev-list', '--no-merges', '--format=%H %ct', '--no-commit-header', `refs/heads/${branch}`])).stdout.split('\n').filter(Boolean).map((l) => l.split(' '));
    const heads = (await runGit(source, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/pull/'])).stdout.split('\n').filter(Boolean).map((l) => l.split(' '));
    const sources = store.sources;
    store.transaction(() => {
      for (let n = 1; n <= PULLS; n++) {
        const real = heads[n - 1];
        const head = real ? real[0]! : hex40(random);
        const merge = random() < 0.7 ? line[Math.floor(random() * line.length)]![0]! : null;
        sources.upsertPull({
          repo: REPO, number: n, title: `change ${n}`, body: '', author: 'dev', state: 'closed', draft: false, baseRef: branch, baseSha: hex40(random),
          headRef: `topic-${n}`, headSha: head, mergeCommitSha: merge, createdAt: '2020-01-01T00:00:00Z', mergedAt: merge ? '2020-01-02T00:00:00Z' : null,
          htmlUrl: `https://github.com/${REPO}/pull/${n}`, commitShas: [head], commitMessages: [`change ${n}`], source: 'import',
        });
      }
      for (let i = 1; i <= ITEMS; i++) {
        const [gold, t] = line[Math.floor(random() * line.length)]!;
        const created = new Date((Number(t) + 86400 * (1 + Math.floor(random() * 30))) * 1000).toISOString().replace('.000Z', 'Z');
        const culprit = random() < 0.3 ? `#${1 + Math.floor(random() * PULLS)}` : gold!.slice(0, 10);
        sources.upsertThread({
          repo: REPO, number: PULLS + i, kind: 'issue', title: `Crash in parser after upgrade ${i}`,
          body: `Parsing any config file now fails with "unexpected token" in lib/parse.c.\n\nI bisected it: the first bad commit is ${culprit}.`,
          author: 'reporter', state: 'open', createdAt: created, updatedAt: null, closedAt: null, htmlUrl: `https://github.com/${REPO}/issues/${PULLS + i}`, source: 'import',
        });
      }
    });
    const ctx: StageContext = createStageContext({
      store,
      config: Config.parse({ repos: [{ name: REPO, git_url: source, default_branch: branch }] }),
      log: silentLogger,
      now: () => new Date('2026-01-01T00:00:00Z'),
      signal: new AbortController().signal,
      dataDir,
      env: {},
      options: { fetch: false },
    });
    for (const item of await attributeStage.plan(ctx, [REPO])) {
      const outcome = await attributeStage.process(item, ctx);
      store.transaction(() => outcome.save(store));
    }
    const items = await resolveStage.plan(ctx, [REPO]);
    const spawned = new Map<string, number>();
    const stop = observeGitSpawns((_dir, args) => { if (process.env.TRACE_GIT) process.stderr.write(args.join(' ') + '\n'); spawned.set(args[0]!, (spawned.get(args[0]!) ?? 0) + 1); });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let done = 0;
    for (const item of items) {
      const outcome = await resolveStage.process(item, ctx);
      store.transaction(() => outcome.save(store));
      if (outcome.status === 'done') done += 1;
    }
    const stageMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    stop();
    console.log(`repository: ${source} (${branch}); ${fmt(PULLS)} pull requests stored (${fmt(Math.min(heads.length, PULLS))} with real refs/pull heads), ${fmt(items.length)} threads`);
    console.log(`resolve stage (index once per repository, shared branch history): ${fmt(items.length)} items in ${(stageMs / 1000).toFixed(2)} s = ${(stageMs / items.length).toFixed(2)} ms/item wall, ${((cpu.user + cpu.system) / 1000 / items.length).toFixed(2)} ms/item of this process's CPU (${done} resolved; target <= 5 ms/item); git processes: ${[...spawned].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'} (cat-file: the long-lived readers)`);

    // The old shape, on a sample: every item reloads every pull request and scans the list.
    const handle = await ctx.git.get(REPO);
    const tables = store.backward;
    const sample = items.slice(0, SAMPLE);
    const t1 = performance.now();
    for (const item of sample) {
      const { number } = item.input as { number: number };
      const text = tables.textScreen(REPO, number);
      if (!text || text.decision === 'reject') continue;
      const pulls = sources.pulls(REPO);
      await resolveThread(handle, threadFromRows(sources.thread(REPO, number)!, sources.comments(REPO, number)), tables.attributions(REPO, number), text, {
        defaultBranch: branch,
        pull: (n) => pulls.find((p) => p.number === n),
        pulls,
        fixPulls: sources.links(REPO).filter((l) => l.issue === number).map((l) => l.pull),
      });
    }
    const naiveMs = (performance.now() - t1) / sample.length;
    console.log(`old per-item shape (reload + scan all pull requests, per-case cutoff processes): ${naiveMs.toFixed(1)} ms/item on a ${sample.length}-item sample`);
    console.log(`ratio: ${(naiveMs / (stageMs / items.length)).toFixed(0)}x per item`);
    console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    await ctx.services.close();
    store.close();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
