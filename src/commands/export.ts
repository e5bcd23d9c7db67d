/**
 * Frozen manifests and what is done with them: `r2v export`, `r2v verify`, `r2v package`,
 * `r2v package audit`, `r2v score` and `r2v preflight`.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { openApp, type App } from '../app.js';
import { repoConfig } from '../config.js';
import { EXIT, UsageError } from '../errors.js';
import { auditPackages } from '../export/audit.js';
import { exportManifests } from '../export/manifest.js';
import { checkFreezeName, FROZEN_FILE, writeFrozen } from '../export/freeze.js';
import { formatAccuracy, manifestBaselineLines } from '../baselines/summary.js';
import { recomputeBaselines } from '../baselines/recompute.js';
import { canonicalJson } from '../util/canonical.js';
import { configuredMirrors, singleMirror, type MirrorOf } from '../export/mirrors.js';
import { LAYER_COMMITS } from '../export/object-layers.js';
import { GRADING_DIR, WORK_TREE_MODES, type WorkTreeMode } from '../export/package.js';
import { markPackageIndex, readPackageIndex } from '../export/package-index.js';
import { packageVariant, VARIANTS, type Variant } from '../export/variants.js';
import { loadManifest, readManifest, ManifestRecord, checkManifestPath } from '../export/read-manifest.js';
import { REQUIRE_PROBE_NOTE, tierOf } from '../export/records.js';
import type { Blocker } from '../model/admission.js';
import { formatScore, preflight, type GoldEntry, type PredictionLine } from '../export/score.js';
import { loadForwardPairs } from '../export/forward-pairs.js';
import { DEFAULT_BOOTSTRAP, formatMetrics } from '../export/metrics.js';
import { BASELINES, baselinePredictions, protocolScore, type BaselineName } from '../export/protocol-score.js';
import { verifyManifest } from '../export/verify.js';
import { gitDirFromUser } from '../git/open-dir.js';
import { emitRubric, RUBRICS_DIR, type OracleRow } from '../mergeability/emit.js';
import { commentEvidence, coupledPairTasks, forwardTask, type TaskContext } from '../mergeability/tasks.js';
import { readJsonl } from '../util/jsonl.js';
import { snakeKeys } from '../util/snake-case.js';
import { printJson, type CliContext, type GlobalOptions, type Io, type RegisterCommand } from './types.js';

export async function mirrorsFor(opts: { gitDir?: string }, cmd: Command, io: Io): Promise<MirrorOf> {
  if (opts.gitDir) return singleMirror(await gitDirFromUser('--git-dir', opts.gitDir, io.cwd));
  const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), io, { mode: 'read' });
  const dataDir = app.dataDir;
  const { config, baseDir } = app.loaded;
  app.close();
  return configuredMirrors(dataDir, (repo) => {
    const dir = repoConfig(config, repo)?.git_dir;
    return dir === undefined ? undefined : resolve(baseDir, dir);
  });
}

/** A commander parser of an integer >= min. */
function count(flag: string, min: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`${flag} must be an integer >= ${min}, got "${value}"`);
    return Number(value);
  };
}

function goldsOf(records: readonly ManifestRecord[]): GoldEntry[] {
  return records.map((r) => ({ caseId: r.case_id, task: r.task, gold: r.gold }));
}

/** The admitted records of the database (no review or probe requirement), validated. */
function* admittedFromDb(cmd: Command, io: Io): Generator<ManifestRecord> {
  const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), io, { mode: 'read' });
  try {
    for (const row of app.store.admission.stream()) {
      if (tierOf(JSON.parse(row.blockers) as Blocker[], { requireReview: false }) !== 'admitted') continue;
      yield ManifestRecord.parse(JSON.parse(row.record));
    }
  } finally {
    app.close();
  }
}

/** Test globs and comment evidence from the configuration and database; nothing of either with --git-dir. */
function rubricContext(opts: { gitDir?: string }, cmd: Command, io: Io): { ctx: TaskContext; store: App['store'] | null; close: () => void } {
  if (opts.gitDir) return { ctx: { testGlobs: () => undefined, evidence: () => [] }, store: null, close: () => undefined };
  const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), io, { mode: 'read' });
  const config = app.loaded.config;
  return {
    ctx: { testGlobs: (repo) => repoConfig(config, repo)?.test_globs, evidence: commentEvidence(app.store) },
    store: app.store,
    close: () => app.close(),
  };
}

export const registerExport: RegisterCommand = (program: Command, ctx: CliContext) => {
  const { io } = ctx;

  program
    .command('export')
    .description('write frozen manifests of the admitted cases (backward.jsonl, forward.jsonl), candidates.jsonl and rejections.jsonl (+ .meta.json)')
    .option('--out <dir>', 'output directory', 'manifests')
    .addOption(new Option('--task <task>', 'only one task').choices(['backward', 'forward']))
    .option('--require-review', 'admit only cases with a human accept (the others are candidates)')
    .option('--include-candidates', 'also write candidate cases into the manifests, with "tier": "candidate"')
    .option('--require-isolation', 'admit a Backward case only when its probe ran without network (the others are candidates)')
    .option('--summary', "print each baseline's accuracy over the written manifests")
    .option('--freeze <name>', 'write a frozen release into <out>/<name>/ with FROZEN.json (sha256 of every file, versions); never overwritten')
    .option('--force', 'replace manifests that hold records even when this export has none')
    .addOption(new Option('--require-probe', 'kept for old scripts: a verified probe is always required').hideHelp())
    .action(async (opts: { out: string; task?: 'backward' | 'forward'; requireReview?: boolean; requireIsolation?: boolean; includeCandidates?: boolean; requireProbe?: boolean; summary?: boolean; freeze?: string; force?: boolean }, cmd: Command) => {
      if (opts.requireProbe) io.stderr.write(REQUIRE_PROBE_NOTE);
      if (opts.freeze !== undefined) checkFreezeName(opts.freeze);
      const out = opts.freeze !== undefined ? join(resolve(io.cwd, opts.out), opts.freeze) : resolve(io.cwd, opts.out);
      const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), io, { mode: 'read' });
      try {
        const summary = exportManifests(app.store, {
          out,
          task: opts.task,
          requireReview: opts.requireReview ?? false,
          requireIsolation: opts.requireIsolation ?? false,
          includeCandidates: opts.includeCandidates ?? false,
          force: opts.force ?? false,
        });
        for (const path of summary.removed) io.stderr.write(`r2v: removed ${path} (left by an earlier export; --task ${opts.task} rewrote rejections.jsonl)\n`);
        if (opts.requireReview) {
          io.stderr.write('r2v: --require-review admits the cases with a human accept as of the last admit run (after r2v review import, run: r2v run --stage admit)\n');
        }
        for (const f of summary.files) io.stdout.write(`${f.path}\t${f.records} records\tsha256 ${f.sha256}\n`);
        if (opts.freeze !== undefined) {
          writeFrozen(out, opts.freeze);
          io.stdout.write(`${join(out, FROZEN_FILE)}\tfrozen as ${opts.freeze}\n`);
        }
        if (opts.summary) {
          for (const f of summary.files.filter((x) => x.name === 'backward.jsonl' || x.name === 'forward.jsonl')) {
            for (const line of await manifestBaselineLines(f.path, f.name)) io.stdout.write(`${line}\n`);
          }
        }
      } finally {
        app.close();
      }
    });

  program
    .command('baselines')
    .description("recompute every case's baselines from git; print them as JSONL, each baseline's accuracy, and differences from the manifest")
    .requiredOption('--manifest <file>', 'manifest JSONL (backward.jsonl or forward.jsonl)')
    .option('--git-dir <dir>', 'git directory holding the objects (default: the configured mirrors)')
    .action(async (opts: { manifest: string; gitDir?: string }, cmd: Command) => {
      const path = resolve(io.cwd, opts.manifest);
      checkManifestPath(path);
      const report = await recomputeBaselines(path, await mirrorsFor(opts, cmd, io));
      for (const c of report.cases) io.stdout.write(`${canonicalJson({ case_id: c.caseId, baselines: c.baselines, same_as_manifest: c.same })}\n`);
      for (const l of formatAccuracy(report.accuracy)) io.stderr.write(`r2v: ${l}\n`);
      io.stderr.write(`r2v: recomputed ${report.cases.length} cases: ${report.differences} differ from the manifest\n`);
      if (report.differences > 0) ctx.setExitCode(EXIT.itemsFailed);
    });

  program
    .command('verify')
    .description('recompute every gold and structural check a manifest records; exit non-zero on any difference')
    .requiredOption('--manifest <file>', 'manifest JSONL (backward.jsonl or forward.jsonl)')
    .option('--git-dir <dir>', 'git directory holding the objects (default: the configured mirrors)')
    .action(async (opts: { manifest: string; gitDir?: string }, cmd: Command) => {
      const path = resolve(io.cwd, opts.manifest);
      checkManifestPath(path);
      const report = await verifyManifest(path, await mirrorsFor(opts, cmd, io));
      for (const d of report.differences) io.stdout.write(`${d.caseId}: ${d.what}\n`);
      io.stdout.write(`verified ${report.checked} cases: ${report.differences.length} differences\n`);
      if (report.differences.length > 0) ctx.setExitCode(EXIT.itemsFailed);
    });

  const pkg = program
    .command('package')
    .description('build task packages (a case or all) with grading data and rubric scaffolds kept apart; `package audit DIR` checks them')
    .option('--case <id>', 'one case')
    .option('--all', 'every case of the manifest (or every admitted case of the database)')
    .option('--out <dir>', 'output directory (packages and grading/)')
    .option('--manifest <file>', 'read cases from this manifest instead of the database')
    .option('--git-dir <dir>', 'git directory holding the objects (default: the configured mirrors)')
    .addOption(new Option('--variant <variant>', 'controlled variant of the packages').choices([...VARIANTS]).default('full'))
    .option('--pairs <file>', 'forward-pairs.jsonl (for --variant paired-state)')
    .addOption(
      new Option('--work-tree <mode>', "Backward packages: repo/ with its files checked out, or only its .git (task.json says how to check them out; for large sets)")
        .choices([...WORK_TREE_MODES])
        .default('checkout'),
    )
    .option('--layer-commits <n>', 'Backward packages: first-parent commits per shared history layer (smaller: less disk for many packages of one repository, more for few)', count('--layer-commits', 1), LAYER_COMMITS)
    .action(async (opts: { case?: string; all?: boolean; out?: string; manifest?: string; gitDir?: string; variant: Variant; pairs?: string; workTree: WorkTreeMode; layerCommits: number }, cmd: Command) => {
      if (!opts.out) throw new UsageError('package: --out DIR is required');
      if (!opts.case && !opts.all) throw new UsageError('package: give --case ID or --all');
      if (opts.case && opts.all) throw new UsageError('package: --case and --all exclude each other');
      if (opts.variant === 'paired-state' && !opts.pairs) throw new UsageError('package --variant paired-state: give --pairs FILE (written by r2v forward-pairs)');
      const out = resolve(io.cwd, opts.out);
      const mirrors = await mirrorsFor(opts, cmd, io);
      const pairs = opts.pairs ? new Map((await loadForwardPairs(resolve(io.cwd, opts.pairs))).map((p) => [p.case_id, p])) : undefined;
      const source: AsyncIterable<ManifestRecord> | Iterable<ManifestRecord> = opts.manifest
        ? readManifest(resolve(io.cwd, opts.manifest))
        : admittedFromDb(cmd, io);
      const rubrics = rubricContext(opts, cmd, io);
      const oracles: OracleRow[] = [];
      let n = 0;
      let matched = 0;
      mkdirSync(out, { recursive: true });
      // Incomplete until the loop ends: a killed packaging leaves a set the audit calls half-written.
      const before = readPackageIndex(out);
      markPackageIndex(out, false);
      try {
        for await (const r of source) {
          if (opts.case && r.case_id !== opts.case) continue;
          matched += 1;
          const id = await packageVariant(r, mirrors(r.repo), out, opts.variant, pairs, { workTree: opts.workTree, layerCommits: opts.layerCommits });
          if (id === null) continue;
          // Scaffolds for admitted cases of full packages only: a manifest written with --include-candidates also holds candidates.
          if (opts.variant === 'full' && r.task === 'forward' && (r as { tier?: unknown }).tier !== 'candidate') {
            oracles.push(await emitRubric(await forwardTask(r, mirrors(r.repo), rubrics.ctx), mirrors(r.repo), out));
          }
          io.stdout.write(`${id}\n`);
          n += 1;
        }
        if (opts.case && matched === 0) {
          markPackageIndex(out, before === null || before === 'invalid' ? true : before.complete);
          throw new UsageError(`--case ${opts.case}: no such admitted case${opts.manifest ? ` in ${opts.manifest}` : ''}`);
        }
        // Coupled pairs have no package of their own; their scaffolds come with a whole-database packaging.
        if (opts.variant === 'full' && opts.all && !opts.manifest && rubrics.store) {
          for (const task of coupledPairTasks(rubrics.store, rubrics.ctx)) oracles.push(await emitRubric(task, mirrors(task.repo), out));
        }
        markPackageIndex(out, true);
      } finally {
        rubrics.close();
      }
      io.stderr.write(`r2v: packaged ${n} cases${opts.variant === 'full' ? '' : ` (variant ${opts.variant})`} into ${out}\n`);
      if (opts.variant === 'full') {
        const skipped = oracles.filter((o) => !o.emitted);
        io.stderr.write(`r2v: rubric scaffolds: ${oracles.length - skipped.length} written, ${skipped.length} not written (reasons in ${GRADING_DIR}/${RUBRICS_DIR}/<id>/oracle.json)\n`);
        for (const o of skipped) io.stderr.write(`r2v: no rubric for ${o.task_id}: ${o.reason}\n`);
      }
    });

  pkg
    .command('audit')
    .description('audit every package under DIR for leaks; one line per finding, non-zero exit on any')
    .argument('<dir>', 'directory written by r2v package')
    .action(async (dir: string) => {
      const report = await auditPackages(resolve(io.cwd, dir));
      for (const f of report.findings) io.stdout.write(`${f}\n`);
      io.stdout.write(`audited ${report.packages} packages: ${report.findings.length} findings\n`);
      if (report.findings.length > 0) ctx.setExitCode(EXIT.itemsFailed);
    });

  program
    .command('score')
    .description('score predictions (or a recorded baseline) against a manifest: per case, then accuracy by stratum, repository-macro, leave-one-out and bootstrap intervals')
    .requiredOption('--manifest <file>', 'manifest JSONL')
    .option('--predictions <file>', 'predictions JSONL: {case_id, sha} or {case_id, activated_workflows}')
    .addOption(new Option('--baseline <name>', 'score the baseline answers recorded in the manifest instead of predictions').choices([...BASELINES]))
    .option('--pairs <file>', 'forward-pairs.jsonl: also score paired states (predictions use the case id <case_id>__paired)')
    .option('--seed <n>', 'bootstrap seed', count('--seed', 0), 1)
    .option('--resamples <n>', 'bootstrap resamples', count('--resamples', 1), 10_000)
    .option('--json', 'one JSON object instead of text lines (the metrics included)')
    .action(async (opts: { manifest: string; predictions?: string; baseline?: BaselineName; pairs?: string; seed: number; resamples: number; json?: boolean }) => {
      if (!opts.predictions && !opts.baseline) throw new UsageError('score: give --predictions FILE or --baseline NAME');
      if (opts.predictions && opts.baseline) throw new UsageError('score: --predictions and --baseline exclude each other');
      const records = await loadManifest(resolve(io.cwd, opts.manifest));
      let lines: PredictionLine[] = [];
      if (opts.baseline) lines = baselinePredictions(records, opts.baseline, opts.manifest);
      else {
        const predictions = resolve(io.cwd, opts.predictions!);
        checkManifestPath(predictions, '--predictions');
        for await (const l of readJsonl(predictions)) lines.push(l);
      }
      const pairs = opts.pairs ? await loadForwardPairs(resolve(io.cwd, opts.pairs)) : null;
      const scored = protocolScore(records, lines, pairs, { ...DEFAULT_BOOTSTRAP, seed: opts.seed, resamples: opts.resamples });
      if (opts.json) printJson(io, snakeKeys({ ...scored.report, metrics: scored.metrics, pair_metrics: scored.pairs }));
      else {
        for (const l of formatScore(scored.report)) io.stdout.write(`${l}\n`);
        for (const l of formatMetrics(scored.metrics, scored.pairs ?? undefined)) io.stderr.write(`${l}\n`);
      }
      // Prediction lines that could not be scored (unparsable, no case_id, unknown case, a malformed
      // or repeated answer) make the run exit 3, whatever the score.
      const malformed = scored.report.notes.length + scored.report.cases.filter((c) => c.status === 'unscorable').length;
      if (opts.predictions && malformed > 0) {
        io.stderr.write(`r2v: ${opts.predictions}: ${malformed} prediction line${malformed === 1 ? '' : 's'} malformed or not scorable (listed above)\n`);
        ctx.setExitCode(EXIT.itemsFailed);
      }
    });

  program
    .command('preflight')
    .description('check the scorer on a manifest: oracle answers score 100%, malformed and wrong answers 0%')
    .requiredOption('--manifest <file>', 'manifest JSONL')
    .action(async (opts: { manifest: string }) => {
      const golds = goldsOf(await loadManifest(resolve(io.cwd, opts.manifest)));
      if (golds.length === 0) throw new UsageError(`--manifest ${opts.manifest}: no cases to check the scorer on`);
      const checks = preflight(golds);
      for (const c of checks) {
        io.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'}\t${c.name}\texpected ${(100 * c.expected).toFixed(1)}%\tgot ${(100 * c.got).toFixed(1)}%\n`);
      }
      const failed = checks.filter((c) => !c.ok).length;
      io.stdout.write(`preflight: ${checks.length - failed}/${checks.length} checks passed on ${golds.length} cases\n`);
      if (failed > 0) ctx.setExitCode(EXIT.itemsFailed);
    });
};
