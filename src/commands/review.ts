/**
 * `r2v review`: the human review ledger. `export` writes the cases needing a decision as JSONL,
 * `import` appends decisions, `show` prints one case's standing, and `screen` asks the optional
 * external screener for proposals.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { openApp, type App } from '../app.js';
import { UsageError } from '../errors.js';
import { tokenEnvs } from '../config.js';
import { indexCases, reviewCases } from '../review/cases.js';
import { entryView, reviewExportLines, reviewRecord, STATUS_FILTERS, type StatusFilter } from '../review/review-export.js';
import { importDecisions } from '../review/import.js';
import type { ReviewTask } from '../review/keys.js';
import { candidateJson, checkAnswer, runScreener, screenerReason } from '../review/screener.js';
import { reviewStanding } from '../review/status.js';
import { LABEL_VALUES } from '../labels/rules.js';
import { readJsonl, type JsonlLine } from '../util/jsonl.js';
import { reposInScope } from './core.js';
import { groupCommand, printJson, type GlobalOptions, type Io, type RegisterCommand } from './types.js';

const TASKS: readonly ReviewTask[] = ['backward', 'forward'];

function parseTask(value: string | undefined): ReviewTask | undefined {
  if (value === undefined) return undefined;
  if (!(TASKS as readonly string[]).includes(value)) throw new UsageError(`--task ${value}: must be backward or forward`);
  return value as ReviewTask;
}

function parseStatus(value: string | undefined): StatusFilter {
  if (value === undefined) return 'pending';
  if (!(STATUS_FILTERS as readonly string[]).includes(value)) throw new UsageError(`--status ${value}: must be one of ${STATUS_FILTERS.join(', ')}`);
  return value as StatusFilter;
}

function withApp<T>(cmd: Command, io: Io, fn: (app: App) => T, lock?: string): T {
  // Without a lock the command only reads: the database is opened read-only.
  const app = openApp(cmd.optsWithGlobals() as GlobalOptions, io, lock ? { lock } : { mode: 'read' });
  let closeAfter = true;
  try {
    const out = fn(app);
    if (out instanceof Promise) {
      closeAfter = false;
      return out.finally(() => app.close()) as T;
    }
    return out;
  } finally {
    if (closeAfter) app.close();
  }
}

/** Writes `lines` to `path` through a temporary file renamed into place: never half-written. */
function writeAtomically(path: string, lines: Iterable<string>): number {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let n = 0;
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch (error) {
    throw new UsageError(`${path}: cannot write: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    for (const l of lines) {
      writeSync(fd, `${l}\n`);
      n += 1;
    }
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw error;
  }
  return n;
}

interface ExportOpts {
  status?: string;
  task?: string;
  repo?: string;
  out?: string;
  includeCandidates?: boolean;
}

interface ScreenOpts {
  task?: string;
  repo?: string;
  includeCandidates?: boolean;
  again?: boolean;
}

type ScreenOutcome = 'recorded' | 'skipped' | 'unsupported' | 'invalid' | 'timeout' | 'failed';

export const registerReview: RegisterCommand = (program: Command, ctx) => {
  const { io } = ctx;
  const review = groupCommand(program, 'review', 'human review ledger: export cases, import decisions, external screener');

  review
    .command('export')
    .description('write the cases that need a human decision as JSONL (sorted by case key)')
    .option('--status <status>', `ledger status to export: ${STATUS_FILTERS.join(', ')} (default: pending)`)
    .option('--task <task>', 'backward or forward (default: both)')
    .option('--repo <owner/name>', 'only this repository')
    .option('--include-candidates', 'also the cases the rules passed (a human accept is needed under --require-review)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action((opts: ExportOpts, cmd: Command) => {
      const status = parseStatus(opts.status);
      const task = parseTask(opts.task);
      withApp(cmd, io, (app) => {
        const repos = opts.repo !== undefined ? reposInScope(app, opts.repo) : undefined;
        const lines = reviewExportLines(app.store, { status, task, repos, includeCandidates: opts.includeCandidates === true });
        if (opts.out !== undefined) {
          const n = writeAtomically(resolve(io.cwd, opts.out), lines);
          io.stderr.write(`r2v: ${n} case${n === 1 ? '' : 's'} written to ${opts.out}\n`);
        } else {
          for (const l of lines) io.stdout.write(`${l}\n`);
        }
      });
    });

  review
    .command('import')
    .description('append decisions {case_id or case_key, reviewer, decision, reason, input_digest?} from a JSONL file (- for stdin)')
    .argument('<file>', 'JSONL file of decisions')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const path = file === '-' ? '-' : resolve(io.cwd, file);
      const lines: JsonlLine[] = [];
      for await (const l of readJsonl(path)) lines.push(l);
      withApp(cmd, io, (app) => {
        const summary = importDecisions(app.store, lines, new Date());
        for (const b of summary.bad) io.stderr.write(`${file}:${b.line}: ${b.message}\n`);
        printJson(io, { imported: summary.imported, skipped: summary.skipped, bad: summary.bad.length });
        if (summary.bad.length > 0) ctx.setExitCode(3);
      }, 'review import');
    });

  review
    .command('show')
    .description('one case as a reviewer sees it, with its ledger status and every entry')
    .argument('<case>', 'case key (owner/name#N or owner/name#I<-P) or case id')
    .action((ref: string, _opts: unknown, cmd: Command) => {
      withApp(cmd, io, (app) => {
        const index = indexCases(app.store);
        const l = index.byKey.get(ref) ?? index.byId.get(ref);
        if (!l) throw new UsageError(`${ref}: unknown case (expected a case key or case id)`);
        const ledger = app.store.review;
        if (l.kind === 'reviewable') {
          printJson(io, reviewRecord(l.case, ledger).record);
          return;
        }
        const entries = ledger.entries(l.caseKey).map((e) => entryView(e, ''));
        printJson(io, { case_key: l.caseKey, case_id: l.caseId, reviewable: false, why: l.kind === 'rejected' ? `rejected: ${l.codes.join(', ')}` : l.why, decisions: entries });
      });
    });

  review
    .command('label')
    .description("override a rule-proposed difficulty label of a case, bound to the case's current inputs (takes effect at the next admit run)")
    .argument('<case>', 'case key (owner/name#N or owner/name#I<-P) or case id')
    .argument('<label>', 'backward: locality or staging; forward: staging')
    .argument('<value>', 'locality: local or cross; staging: direct or staged')
    .requiredOption('--reviewer <name>', 'who decides')
    .requiredOption('--reason <text>', 'why (kept as the label evidence)')
    .action((ref: string, label: string, value: string, opts: { reviewer: string; reason: string }, cmd: Command) => {
      withApp(cmd, io, (app) => {
        const index = indexCases(app.store);
        const l = index.byKey.get(ref) ?? index.byId.get(ref);
        if (!l) throw new UsageError(`${ref}: unknown case (expected a case key or case id)`);
        if (l.kind !== 'reviewable') throw new UsageError(`${ref}: no labels to override: ${l.kind === 'rejected' ? `rejected (${l.codes.join(', ')})` : l.why}`);
        const c = l.case;
        const allowed = LABEL_VALUES[c.task] as Record<string, readonly string[]>;
        if (!(label in allowed)) throw new UsageError(`${ref}: ${c.task} cases have no label ${JSON.stringify(label)} (labels: ${Object.keys(allowed).join(', ')})`);
        if (!allowed[label]!.includes(value)) throw new UsageError(`${ref}: label ${label} takes ${allowed[label]!.join(' or ')}, not ${JSON.stringify(value)}`);
        const reviewer = opts.reviewer.trim();
        if (reviewer.length === 0 || /[\r\n]/.test(reviewer)) throw new UsageError('--reviewer: must be one non-empty line');
        app.store.labelOverrides.append({
          caseKey: c.caseKey, task: c.task, label, value, reviewer, reason: opts.reason, inputDigest: c.inputDigest, recordedAt: new Date().toISOString(),
        });
        printJson(io, { case_key: c.caseKey, case_id: c.caseId, label, value, reviewer, input_digest: c.inputDigest });
        io.stderr.write('r2v: recorded; run `r2v run --stage admit` to apply it to the record\n');
      }, 'review label');
    });

  review
    .command('screen')
    .description('ask the configured external screener about each pending case (proposals, never human decisions)')
    .option('--task <task>', 'backward or forward (default: both)')
    .option('--repo <owner/name>', 'only this repository')
    .option('--include-candidates', 'also the cases the rules passed')
    .option('--again', 'ask again about cases this screener already answered on the same inputs')
    .action(async (opts: ScreenOpts, cmd: Command) => {
      const task = parseTask(opts.task);
      await withApp(cmd, io, async (app) => {
        const config = app.loaded.config;
        const screener = config.screener;
        if (!screener) {
          throw new UsageError(`${app.loaded.path ?? 'r2v.config.yaml'}: no screener configured (add screener: {name, command, timeout_s})`);
        }
        const repos = opts.repo !== undefined ? reposInScope(app, opts.repo) : undefined;
        const ledger = app.store.review;
        const reviewer = `screener:${screener.name}`;
        const env: NodeJS.ProcessEnv = { ...io.env };
        for (const name of tokenEnvs(config)) delete env[name];
        const counts = new Map<ScreenOutcome, number>();
        const report = (caseKey: string, outcome: ScreenOutcome, extra: Record<string, unknown> = {}): void => {
          counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
          printJson(io, { case_key: caseKey, outcome, ...extra });
        };
        for (const c of reviewCases(app.store, { task, repos, includeCandidates: opts.includeCandidates === true })) {
          if (ctx.signal.aborted) break;
          if (reviewStanding(ledger.entries(c.caseKey), c.inputDigest).status !== 'pending') continue;
          const asked = ledger.entries(c.caseKey).some((e) => e.reviewer === reviewer && e.inputDigest === c.inputDigest);
          if (asked && !opts.again) {
            report(c.caseKey, 'skipped', { detail: `${reviewer} already answered on these inputs` });
            continue;
          }
          const run = await runScreener(
            { command: screener.command, timeoutMs: screener.timeout_s * 1000, cwd: app.loaded.baseDir, env, signal: ctx.signal },
            candidateJson(c),
          );
          if (run.kind !== 'answered') {
            report(c.caseKey, run.kind, { detail: run.detail });
            continue;
          }
          const check = checkAnswer(run.stdout, c.quoteSources);
          if (check.kind === 'invalid') {
            report(c.caseKey, 'invalid', { detail: check.detail });
            continue;
          }
          if (check.kind === 'unsupported') {
            report(c.caseKey, 'unsupported', { decision: check.answer.decision, detail: check.detail });
            continue;
          }
          const entry = {
            caseKey: c.caseKey,
            task: c.task,
            reviewer,
            decision: check.answer.decision,
            reason: screenerReason(check.answer),
            inputDigest: c.inputDigest,
            recordedAt: new Date().toISOString(),
            source: 'screener' as const,
          };
          const existing = ledger.findIdentical(entry);
          if (existing !== undefined) {
            report(c.caseKey, 'skipped', { decision: entry.decision, detail: `identical to entry ${existing}` });
            continue;
          }
          const id = app.store.transaction(() => ledger.append(entry));
          report(c.caseKey, 'recorded', { decision: entry.decision, entry_id: id });
        }
        const summary = [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'no pending cases';
        io.stderr.write(`r2v: ${reviewer}: ${summary}\n`);
        const failed = ['unsupported', 'invalid', 'timeout', 'failed'].some((k) => (counts.get(k as ScreenOutcome) ?? 0) > 0);
        if (failed) ctx.setExitCode(3);
      }, 'review screen');
    });
};
