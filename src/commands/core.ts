import { cleanLeftovers } from '../run/leftovers.js';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { openApp, dbPath, type App } from '../app.js';
import { CONFIG_FILE, loadConfig, requireConfig, resolveDataDir, STARTER_CONFIG, tokenEnvs } from '../config.js';
import { addRepo, removeRepo } from '../config-edit.js';
import { ERROR_KINDS, UsageError, EXIT } from '../errors.js';
import { REQUIRE_PROBE_NOTE } from '../export/records.js';
import { createLogger } from '../log.js';
import { createStageContext } from '../run/context.js';
import { createProgress } from '../run/progress.js';
import { runStages, type RunSummary } from '../run/runner.js';
import { selectStages } from '../run/select.js';
import { planShards, reposOfShard, resolveShard, shardLabel, tokenEnvFor, type Shard } from '../run/shard.js';
import { EVALUATOR_ID } from '../routing/index.js';
import { r2vVersion } from '../version.js';
import { stages as registry } from '../stages/index.js';
import type { RunOptions, Stage } from '../stages/types.js';
import { openStore } from '../store/db.js';
import { mergeShards } from '../store/merge.js';
import { ensureDir } from '../util/ensure-dir.js';
import type { CliContext, GlobalOptions, Io, RegisterCommand } from './types.js';
import { printJson } from './types.js';
import { snakeKeys } from '../util/snake-case.js';
import { statusReport } from './status.js';

export function parsePositiveInt(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`${flag} must be a positive integer, got "${value}"`);
    return Number(value);
  };
}

export function allStages(ctx: CliContext): readonly Stage<any>[] {
  return [...registry, ...(ctx.extraStages ?? [])];
}

/** Repositories in scope: the configured ones plus those known to the database (imports). */
export function reposInScope(app: App, only?: string): string[] {
  const names = new Map<string, string>();
  for (const r of app.loaded.config.repos) names.set(r.name.toLowerCase(), r.name);
  for (const name of app.store.sources.repoNames()) {
    if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  }
  const all = [...names.values()].sort();
  if (only === undefined) return all;
  const hit = names.get(only.toLowerCase());
  if (!hit) throw new UsageError(`--repo ${only}: unknown repository (add it with: r2v repo add ${only})`);
  return [hit];
}

function progressMode(globals: GlobalOptions, io: Io): 'tty' | 'lines' | 'quiet' {
  if (globals.quiet) return 'quiet';
  return io.isTTY ? 'tty' : 'lines';
}

/** A shard run's default database: <data_dir>/r2v.shard-K-of-N.db, so shards sharing a data directory never share a database. */
export function shardDbPath(dataDir: string, shard: Shard): string {
  return join(dataDir, `r2v.shard-${shard.index}-of-${shard.count}.db`);
}

export async function executeRun(
  ctx: CliContext,
  globals: GlobalOptions,
  sel: { stage?: string; from?: string; until?: string; repo?: string; force?: boolean; concurrency?: number; onlyFailed?: { kind?: string } },
  options: Omit<RunOptions, 'dataDir' | 'configDir'> = {},
  shardOpts: { shard?: string; shards?: number } = {},
): Promise<RunSummary> {
  const list = selectStages(allStages(ctx), sel);
  const shard = resolveShard(shardOpts, ctx.io.env);
  let effective = globals;
  const derivedDb = shard !== null && shard !== undefined && !globals.db;
  if (derivedDb) effective = { ...globals, db: shardDbPath(resolveDataDir(loadConfig(globals.config, ctx.io.cwd)), shard) };
  const app = openApp(effective, ctx.io, { lock: sel.onlyFailed ? 'retry' : 'run', createDb: derivedDb });
  const envs = tokenEnvs(app.loaded.config);
  const tokenEnv = tokenEnvFor(envs, shard);
  const secrets = envs.map((name) => ctx.io.env[name] ?? '').filter((s) => s.length > 0);
  const log = createLogger({ stream: ctx.io.stderr, level: globals.quiet ? 'error' : 'info', secrets });
  let repos = reposInScope(app, sel.repo);
  if (shard) {
    const meta = app.store.meta;
    const before = meta.get('shard');
    if (before !== undefined && before !== shardLabel(shard)) {
      app.close();
      throw new UsageError(`${app.store.path}: database of shard ${before}, not ${shardLabel(shard)} (use --db to give each shard its own database)`);
    }
    const all = repos.length;
    repos = reposOfShard(repos, shard);
    log.info(`shard ${shardLabel(shard)} (from ${shard.source}): ${repos.length} of ${all} repositories, database ${app.store.path}${envs.length > 1 ? `, token ${tokenEnv}` : ''}`);
  }
  recordMeta(app, shard);
  const stageCtx = createStageContext({
    store: app.store,
    config: app.loaded.config,
    log,
    signal: ctx.signal,
    dataDir: app.dataDir,
    env: ctx.io.env,
    options: { ...options, configDir: app.loaded.baseDir },
    tokenEnv,
  });
  // This run holds the lock: whatever an earlier, killed run left is cleaned now.
  const left = await cleanLeftovers({ store: app.store, dataDir: app.dataDir });
  if (left.interruptedRuns + left.partialLogs + left.pairScratch + left.probeWorktrees > 0) {
    log.info(`cleaned after an interrupted run: ${left.interruptedRuns} runs marked interrupted, ${left.partialLogs} partial logs, ${left.pairScratch} pairs scratch directories, ${left.probeWorktrees} probe worktrees`);
  }
  const runs = app.store.runs;
  const runId = runs.start(['run', ...Object.entries(sel).map(([k, v]) => `${k}=${JSON.stringify(v)}`)], new Date());
  let outcome = 'error';
  try {
    const summary = await runStages(stageCtx, {
      stages: list,
      repos,
      force: sel.force ?? false,
      onlyFailed: sel.onlyFailed,
      concurrency: sel.concurrency ?? app.loaded.config.concurrency,
      progress: createProgress({ stream: ctx.io.stderr, mode: progressMode(globals, ctx.io) }),
      runLogPath: join(app.dataDir, shard ? `run-log.shard-${shard.index}-of-${shard.count}.jsonl` : 'run-log.jsonl'),
    });
    outcome = summary.interrupted ? 'interrupted' : summary.failed > 0 ? 'items-failed' : 'ok';
    if (summary.interrupted) ctx.setExitCode(EXIT.interrupted);
    else if (summary.failed > 0) ctx.setExitCode(EXIT.itemsFailed);
    // Said even under --quiet: a non-zero exit must never come without its reason.
    if (summary.failed > 0) ctx.io.stderr.write(`${failedLine(summary)}\n`);
    return summary;
  } finally {
    runs.finish(runId, outcome, new Date());
    try {
      await stageCtx.services.close();
    } finally {
      app.close();
    }
  }
}

/** One line for a run whose items failed: how many, in which stages, and where to read why. */
export function failedLine(summary: RunSummary): string {
  const per = summary.stages.filter((s) => s.failed > 0).map((s) => `${s.name} ${s.failed}`);
  return `r2v: ${summary.failed} item${summary.failed === 1 ? '' : 's'} failed (${per.join(', ')}); \`r2v status --failed\` says why`;
}

/** Records what produces the database's rows; `r2v merge` refuses shards that disagree. */
function recordMeta(app: App, shard: Shard | null): void {
  const meta = app.store.meta;
  app.store.transaction(() => {
    meta.set('r2v_version', r2vVersion());
    meta.set('evaluator', EVALUATOR_ID);
    if (shard) meta.set('shard', shardLabel(shard));
  });
}

export const registerCore: RegisterCommand = (program: Command, ctx: CliContext) => {
  const stageNames = allStages(ctx).map((s) => s.name);
  const { io } = ctx;

  program
    .command('init')
    .description('write a commented starting config (r2v.config.yaml) and create the database')
    .option('--force', 'overwrite an existing config file')
    .action((opts: { force?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const path = resolve(io.cwd, globals.config ?? CONFIG_FILE);
      if (existsSync(path) && !opts.force) {
        io.stderr.write(`r2v: ${path} already exists; keeping it (use --force to overwrite)\n`);
      } else {
        writeFileSync(path, STARTER_CONFIG);
        io.stderr.write(`r2v: wrote ${path}\n`);
      }
      const loaded = loadConfig(path, io.cwd);
      const db = dbPath(globals, loaded, io);
      ensureDir(resolveDataDir(loaded), 'data directory');
      const store = openStore(db);
      try {
        const workspace = store.workspace;
        workspace.set('data_dir', resolveDataDir(loaded));
        workspace.set('config_path', path);
      } finally {
        store.close();
      }
      io.stderr.write(`r2v: database ready at ${db}\n`);
    });

  const repo = program.command('repo').description('manage the repositories to mine');
  repo
    .command('add')
    .description('add a repository to the config')
    .argument('<owner/name>', 'repository')
    .option('--git-url <url>', 'git URL, local path or file:// URL of the repository (default: GitHub)')
    .option('--default-branch <name>', 'override the default branch')
    .action((name: string, opts: { gitUrl?: string; defaultBranch?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const path = resolve(io.cwd, globals.config ?? CONFIG_FILE);
      addRepo(path, { name, git_url: opts.gitUrl, default_branch: opts.defaultBranch });
      io.stderr.write(`r2v: added ${name} to ${path}\n`);
    });
  repo
    .command('list')
    .description('list configured repositories (JSON lines)')
    .action((_opts: unknown, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const loaded = requireConfig(globals.config, io.cwd);
      for (const r of loaded.config.repos) printJson(io, r);
    });
  repo
    .command('remove')
    .description('remove a repository from the config (its data stays in the database)')
    .argument('<owner/name>', 'repository')
    .action((name: string, _opts: unknown, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const path = resolve(io.cwd, globals.config ?? CONFIG_FILE);
      removeRepo(path, name);
      io.stderr.write(`r2v: removed ${name} from ${path}\n`);
    });

  program
    .command('run')
    .description('run the pipeline (all stages, or a selection) over pending items')
    .addOption(new Option('--stage <name>', 'run only this stage').choices(stageNames))
    .addOption(new Option('--from <name>', 'start at this stage').choices(stageNames))
    .addOption(new Option('--until <name>', 'stop after this stage').choices(stageNames))
    .option('--repo <owner/name>', 'only this repository')
    .option('--force', 'recompute every item in scope, not only pending ones')
    .option('--concurrency <n>', 'items processed at once', parsePositiveInt('--concurrency'))
    .option('--require-review', 'admission: require a human accept')
    .option('--require-isolation', 'admission: require probes that ran without network')
    .addOption(new Option('--require-probe', 'kept for old scripts: a verified probe is always required for a Backward case to be admitted').hideHelp())
    .option('--shard <K/N>', 'only the repositories of shard K of N (K from 0); default database <data_dir>/r2v.shard-K-of-N.db')
    .option('--shards <n>', 'number of shards when the index comes from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID', parsePositiveInt('--shards'))
    .option('--refresh-mirrors', 'fetch every git mirror the run opens (default: only when discover saw new data or an object is missing)')
    .action(async (opts: { stage?: string; from?: string; until?: string; repo?: string; force?: boolean; concurrency?: number; requireReview?: boolean; requireIsolation?: boolean; requireProbe?: boolean; shard?: string; shards?: number; refreshMirrors?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const { shard, shards, requireReview, requireIsolation, requireProbe, refreshMirrors, ...sel } = opts;
      if (requireProbe) io.stderr.write(REQUIRE_PROBE_NOTE);
      const summary = await executeRun(ctx, globals, sel, {
        requireReview: requireReview ?? false,
        requireIsolation: requireIsolation ?? false,
        refreshMirrors: refreshMirrors ?? false,
      }, { shard, shards });
      if (!globals.quiet) {
        for (const s of summary.stages) {
          io.stderr.write(`r2v: ${s.name}: ${s.done} done, ${s.rejected} rejected, ${s.failed} failed, ${s.upToDate} up to date\n`);
        }
        if (summary.interrupted) io.stderr.write('r2v: interrupted; run the same command again to resume\n');
      }
    });

  const shardCmd = program.command('shard').description('split the configured repositories into shards (for Kubernetes, Slurm or CI matrix runs)');
  shardCmd
    .command('plan')
    .description('print, as JSON, the repositories of every shard (K from 0)')
    .requiredOption('--shards <n>', 'number of shards', parsePositiveInt('--shards'))
    .action((opts: { shards: number }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const loaded = loadConfig(globals.config, io.cwd);
      resolveShard({ shard: `0/${opts.shards}` }, {});
      io.stdout.write(`${JSON.stringify(planShards(loaded.config.repos.map((r) => r.name), opts.shards), null, 2)}\n`);
    });

  program
    .command('merge')
    .description('combine shard databases into OUT.db (refuses overlapping repositories and mismatched versions)')
    .argument('<out.db>', 'database to write (built in a temporary file, renamed into place when complete)')
    .argument('<shard.db...>', 'shard databases')
    .option('--force', 'replace OUT.db if it exists')
    .action((out: string, shards: string[], opts: { force?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const summary = mergeShards(resolve(io.cwd, out), shards.map((s) => resolve(io.cwd, s)), { force: opts.force ?? false });
      if (!globals.quiet) {
        const repos = summary.shards.reduce((n, s) => n + s.repos.length, 0);
        io.stderr.write(`r2v: merged ${summary.shards.length} shards (${repos} repositories) into ${summary.out}\n`);
      }
    });

  program
    .command('status')
    .description('per stage: done / rejected / failed / pending, and the failures')
    .option('--repo <owner/name>', 'only this repository')
    .option('--json', 'machine-readable output (documented in the README)')
    .option('--failed', 'list every failed item with its error')
    .action(async (opts: { repo?: string; json?: boolean; failed?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const app = openApp(globals, io, { mode: 'read' });
      try {
        const report = await statusReport(app, allStages(ctx), reposInScope(app, opts.repo), ctx);
        if (opts.json) {
          printJson(io, snakeKeys(report));
          return;
        }
        io.stdout.write(`database ${report.db}\n`);
        io.stdout.write(`${'stage'.padEnd(16)}${'done'.padStart(8)}${'rejected'.padStart(10)}${'failed'.padStart(8)}${'pending'.padStart(9)}\n`);
        for (const s of report.stages) {
          io.stdout.write(`${s.name.padEnd(16)}${String(s.done).padStart(8)}${String(s.rejected).padStart(10)}${String(s.failed).padStart(8)}${String(s.pending).padStart(9)}\n`);
        }
        if (report.failures.length > 0) {
          const byKind = new Map<string, number>();
          for (const f of report.failures) byKind.set(`${f.stage}/${f.kind}`, (byKind.get(`${f.stage}/${f.kind}`) ?? 0) + 1);
          io.stdout.write(`failures: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}\n`);
          if (opts.failed) for (const f of report.failures) io.stdout.write(`  ${f.stage} ${f.key} [${f.kind}] ${f.message}\n`);
        }
        if (report.rejections.length > 0) {
          io.stdout.write('top rejection reasons:\n');
          for (const r of report.rejections.slice(0, 10)) io.stdout.write(`  ${r.stage} ${r.reason} ${r.count}\n`);
        }
        const interrupted = report.unfinished_runs.filter((r) => r.state === 'interrupted');
        if (interrupted.length > 0) {
          io.stdout.write(`interrupted runs: ${interrupted.length} (${interrupted.slice(-3).map((r) => `#${r.id} started ${r.started_at}`).join(', ')}); the next run cleans up after them\n`);
        }
        const running = report.unfinished_runs.find((r) => r.state === 'running');
        if (running) io.stdout.write(`running: #${running.id} started ${running.started_at}\n`);
        for (const b of report.budget) {
          io.stdout.write(`budget ${b.stage} ${b.repo}: ${b.requests} requests, ${b.notModified} not modified, ${b.retries} retries, ${b.waitedMs} ms waited${b.tokenEnv ? ` (token ${b.tokenEnv})` : ''}\n`);
        }
      } finally {
        app.close();
      }
    });

  program
    .command('retry')
    .description('run the failed items of a stage again')
    .addOption(new Option('--stage <name>', 'stage whose failed items to retry').choices(stageNames).makeOptionMandatory())
    .addOption(new Option('--kind <kind>', 'only failures of this error kind').choices([...ERROR_KINDS]))
    .option('--repo <owner/name>', 'only this repository')
    .action(async (opts: { stage: string; kind?: string; repo?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const summary = await executeRun(ctx, globals, { stage: opts.stage, repo: opts.repo, onlyFailed: { kind: opts.kind } });
      const s = summary.stages[0];
      if (s && !globals.quiet) io.stderr.write(`r2v: ${s.name}: retried ${s.processed}: ${s.done} done, ${s.rejected} rejected, ${s.failed} failed\n`);
    });

};
