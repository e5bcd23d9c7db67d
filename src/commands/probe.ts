/**
 * `r2v probe`: show a case's stored probe runs and verdict (`--case ID`), or replay a spec against
 * any git directory outside the database (`--git-dir DIR --gold SHA --spec FILE`), which is how
 * a spec is written and tried.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { openApp } from '../app.js';
import { UsageError } from '../errors.js';
import { replay, type ReplayResult, type RunRecord, type SetupRecord } from '../probe/replay.js';
import { isTransplanted, loadAnyProbeSpec } from '../probe/spec.js';
import { replayTransplanted } from '../probe/transplant.js';
import { resolveCommit } from '../probe/worktree.js';
import type { ProbeRunRow, ProbeVerdictRow } from '../store/tables/probes.js';
import { printJson, type GlobalOptions, type Io, type RegisterCommand } from './types.js';

interface ProbeOptions {
  case?: string;
  gitDir?: string;
  gold?: string;
  spec?: string;
  repeats?: number;
  workDir?: string;
  json?: boolean;
}

function parseRepeats(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100) throw new UsageError(`--repeats ${value}: must be an integer from 1 to 100`);
  return Number(value);
}

/** One row of the per-run table. */
interface TableRow {
  state: string;
  phase: string;
  idx: number;
  classification: string;
  exit: string;
  ms: number;
  net: string;
  why: string;
}

function exitText(r: { executed?: boolean; exitCode: number | null; signal: string | null; timedOut: boolean }): string {
  if (r.executed === false) return '-';
  if (r.timedOut) return 'timeout';
  if (r.signal) return r.signal;
  return String(r.exitCode);
}

/** The per-run table as text lines. */
export function formatRunTable(rows: readonly TableRow[]): string[] {
  const header = ['state', 'phase', '#', 'class', 'exit', 'ms', 'net', 'why'];
  const cells = rows.map((r) => [r.state, r.phase, String(r.idx + 1), r.classification, r.exit, String(r.ms), r.net, r.why]);
  const widths = header.slice(0, -1).map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string => c.map((x, i) => (i < widths.length ? x.padEnd(widths[i]!) : x)).join('  ').trimEnd();
  return [line(header), ...cells.map(line)];
}

function rowsOfResult(r: ReplayResult): TableRow[] {
  const rows: TableRow[] = [];
  for (const state of ['parent', 'gold'] as const) {
    for (const s of r[state].setup as SetupRecord[]) {
      rows.push({ state, phase: 'setup', idx: s.step, classification: s.ok ? 'ok' : 'setup-failed', exit: exitText(s), ms: s.durationMs, net: s.networkIsolated ? 'off' : 'on', why: s.command });
    }
    for (const x of r[state].runs as RunRecord[]) {
      rows.push({ state, phase: 'trigger', idx: x.repeat, classification: x.classification, exit: exitText(x), ms: x.durationMs, net: x.executed ? (x.networkIsolated ? 'off' : 'on') : '-', why: x.why });
    }
  }
  return rows;
}

function rowsOfStored(runs: readonly ProbeRunRow[]): TableRow[] {
  return runs.map((x) => ({
    state: x.state, phase: x.phase, idx: x.idx, classification: x.classification, exit: exitText(x), ms: x.durationMs,
    net: x.executed ? (x.networkIsolated ? 'off' : 'on') : '-', why: x.phase === 'setup' ? x.command : x.why,
  }));
}

function writeLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  for (const l of lines) stream.write(`${l}\n`);
}

function showCase(io: Io, globals: GlobalOptions, caseId: string, json: boolean): void {
  const app = openApp(globals, io, { mode: 'read' });
  try {
    const tables = app.store.probes;
    const v: ProbeVerdictRow | undefined = tables.verdict(caseId);
    if (!v) throw new UsageError(`--case ${caseId}: no probe record for this case (run: r2v run --stage probe)`);
    const runs = tables.runs(caseId);
    if (json) {
      printJson(io, { verdict: v, runs });
      return;
    }
    io.stdout.write(`case ${v.caseId} (${v.repo}#${v.number})\n`);
    const draftLine = `draft: ${v.draftPath ? `${v.draftPath} (${v.draftKind}; never admits until reviewed)` : 'nothing in the report to draft from'}\n`;
    if (v.fixSha) io.stdout.write(`fix: ${v.fixPull !== null && v.fixPull !== undefined ? `pull request #${v.fixPull}, ` : ''}${v.fixSha}${v.tests ? `; tests ${v.tests.join(', ')}` : ''}\n`);
    if (v.proposedCommand) io.stdout.write(`proposed test command (not run until written into repos[].test_command): ${v.proposedCommand}\n`);
    if (v.status === 'no-spec') {
      io.stdout.write(`no probe to run (${v.reason})${v.detail ? `: ${v.detail}` : ''}\n`);
      io.stdout.write(draftLine);
      return;
    }
    if (v.status === 'not-applicable') {
      io.stdout.write(`spec ${v.specPath} (${v.kind})\nnot-applicable: ${v.detail ?? v.reason}\n`);
      io.stdout.write(draftLine);
      return;
    }
    io.stdout.write(`spec ${v.specPath} (${v.kind ?? 'command'})${v.draft ? ' (draft)' : ''}, ${v.repeats} repeats\n`);
    writeLines(io.stdout, formatRunTable(rowsOfStored(runs)));
    io.stdout.write(`parent ${v.parentSha}: ${v.parentVerdict} (${v.parentWhy})\n`);
    io.stdout.write(`gold   ${v.goldSha}: ${v.goldVerdict} (${v.goldWhy})\n`);
    io.stdout.write(`boundary: ${v.boundary} (${v.reason})${v.observed !== v.boundary ? `; runs showed ${v.observed}` : ''}\n`);
  } finally {
    app.close();
  }
}

/** The JSON the standalone mode prints. */
export function standaloneJson(r: ReplayResult): unknown {
  const state = (s: ReplayResult['parent']): unknown => ({ sha: s.sha, verdict: s.verdict, why: s.why, setup: s.setup, runs: s.runs });
  return { parent: state(r.parent), gold: state(r.gold), boundary: r.boundary, reason: r.reason, observed: r.observed, draft: r.draft, repeats: r.repeats };
}

export const registerProbe: RegisterCommand = (program: Command, ctx) => {
  const { io } = ctx;
  program
    .command('probe')
    .description('show a case\'s probe runs and verdict (--case), or replay a spec at gold\'s parent and gold (--git-dir --gold --spec)')
    .option('--case <id>', 'a case id: print its stored runs and verdict')
    .option('--git-dir <dir>', 'standalone: the git directory (bare mirror or .git) to replay in')
    .option('--gold <sha>', 'standalone: the commit said to be first bad')
    .option('--spec <file>', 'standalone: the probe spec (YAML or JSON)')
    .option('--repeats <n>', 'standalone: trigger runs per state (overrides the spec)', parseRepeats)
    .option('--work-dir <dir>', 'standalone: where worktrees are made (default: a fixed directory under the system temp dir)')
    .option('--json', 'machine-readable output')
    .action(async (opts: ProbeOptions, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const standalone = opts.gitDir !== undefined || opts.gold !== undefined || opts.spec !== undefined;
      if (opts.case !== undefined && standalone) throw new UsageError('--case cannot be combined with --git-dir, --gold or --spec');
      if (opts.case !== undefined) return showCase(io, globals, opts.case, opts.json ?? false);
      if (!standalone) throw new UsageError('give --case ID, or --git-dir DIR --gold SHA --spec FILE');
      const missing = (['gitDir', 'gold', 'spec'] as const).filter((k) => opts[k] === undefined);
      if (missing.length > 0) throw new UsageError(`standalone probe needs ${missing.map((k) => `--${k === 'gitDir' ? 'git-dir' : k}`).join(', ')}`);
      const given = resolve(io.cwd, opts.gitDir!);
      if (!existsSync(given)) throw new UsageError(`--git-dir ${opts.gitDir}: directory not found`);
      // A working copy's directory stands for its .git.
      const gitDir = existsSync(join(given, '.git')) ? join(given, '.git') : given;
      const spec = loadAnyProbeSpec(resolve(io.cwd, opts.spec!));
      await resolveCommit(gitDir, opts.gold!).catch((error: unknown) => {
        throw new UsageError(`--gold ${opts.gold}: not a commit in ${opts.gitDir}`, { cause: error });
      });
      const common = {
        gitDir,
        gold: opts.gold!,
        repeats: opts.repeats,
        workRoot: opts.workDir ? resolve(io.cwd, opts.workDir) : join(tmpdir(), 'r2v-probe-work'),
        signal: ctx.signal,
      };
      let result: ReplayResult;
      if (isTransplanted(spec)) {
        const out = await replayTransplanted({ ...common, spec });
        if (!out.applicable) {
          printJson(io, { boundary: null, reason: 'not-applicable', detail: out.notApplicable.detail, parent: out.parentSha, gold: out.goldSha });
          if (!opts.json && !globals.quiet) io.stderr.write(`not-applicable: ${out.notApplicable.detail}\n`);
          return;
        }
        result = out.result;
      } else result = await replay({ ...common, spec });
      // stdout carries the JSON; the human table goes to stderr unless --json or --quiet.
      printJson(io, standaloneJson(result));
      if (!opts.json && !globals.quiet) {
        writeLines(io.stderr, formatRunTable(rowsOfResult(result)));
        io.stderr.write(`boundary: ${result.boundary} (${result.reason})\n`);
      }
    });
};
