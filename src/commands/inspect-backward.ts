import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { extractAttributions } from '../backward/attribute.js';
import { screenThread } from '../backward/screen.js';
import { threadFromImport } from '../backward/thread.js';
import type { Attribution, Decision, Reason, Thread } from '../backward/types.js';
import { describeError, MinerError, UsageError } from '../errors.js';
import { BatchObjects } from '../git/batch.js';
import { defaultBranchOf } from '../git/history.js';
import type { GitRepoHandle } from '../git/repos.js';
import { runGit } from '../git/runner.js';
import type { LeakFinding } from '../sanitize/audit.js';
import type { Span } from '../sanitize/delete.js';
import { resolveThread, type ThreadResolution } from '../stages/resolve.js';
import { sanitizeThread } from '../stages/sanitize.js';
import { checkReasons, validateCase } from '../stages/validate.js';
import { readJsonl } from '../util/jsonl.js';
import { groupCommand, printJson, type RegisterCommand } from './types.js';

export type GoldStatus = 'ok' | 'ambiguous' | 'missing' | 'not-commit' | 'cross-repository' | 'unresolved';

/** One line of `r2v inspect backward`. */
export interface InspectedThread {
  repo: string;
  number: number;
  decision: Decision;
  reasons: string[];
  /** `code: evidence` for every reason, e.g. which structural check failed and why. */
  evidence: string[];
  attributions: { text: string; kind: string; where: string; quote: string; hedged: boolean }[];
  gold: { sha: string | null; status: GoldStatus };
  cutoff: string | null;
  report: { text: string; deletions: Span[] };
  leak_check: { ok: boolean; findings: LeakFinding[] };
}

export interface GitTarget {
  readonly gitDir: string;
  readonly objects: BatchObjects;
  readonly branch: string | null;
}

const GOLD_STATUS: Readonly<Record<string, GoldStatus>> = {
  ok: 'ok',
  ambiguous: 'ambiguous',
  missing: 'missing',
  'not-commit': 'not-commit',
  'cross-repository': 'cross-repository',
};

/**
 * gold.status: ok when a gold resolved, else the status of the first culprit reference that failed.
 * A thread the text rules rejected is not resolved; with a repository, a reference the text rules
 * already placed in another project still reads as cross-repository.
 */
function goldOf(resolution: ThreadResolution | null, crossRepository = false): { sha: string | null; status: GoldStatus } {
  if (!resolution) return { sha: null, status: crossRepository ? 'cross-repository' : 'unresolved' };
  if (resolution.record.gold) return { sha: resolution.record.gold, status: 'ok' };
  const failed = resolution.resolutions.find((r) => r.status !== 'ok');
  return { sha: null, status: (failed && GOLD_STATUS[failed.status]) ?? 'unresolved' };
}

function where(a: Attribution): string {
  return a.post === 0 ? 'body' : `comment ${a.post}`;
}

/**
 * attribute → resolve → validate → sanitize → audit for one thread, without a database. With no
 * repository, only the text-level rules decide and gold stays unresolved.
 */
export async function inspectThread(thread: Thread, git: GitTarget | null): Promise<InspectedThread> {
  const attributions = extractAttributions(thread);
  const text = screenThread(thread, attributions);
  const reasons: Reason[] = [...text.reasons];
  let decision: Decision = text.decision;
  let resolution: ThreadResolution | null = null;
  if (git && text.decision !== 'reject') {
    const handle: GitRepoHandle = { repo: thread.repo, gitDir: git.gitDir, objects: git.objects };
    resolution = await resolveThread(handle, thread, attributions, text, { defaultBranch: git.branch });
    reasons.splice(0, reasons.length, ...resolution.screen.reasons);
    decision = resolution.record.status === 'resolved' ? resolution.screen.decision : 'reject';
    if (resolution.record.status === 'resolved') {
      const failed = checkReasons(await validateCase(handle, resolution.record));
      reasons.push(...failed);
      if (failed.length > 0) decision = 'reject';
    }
  }
  const record = resolution?.record ?? null;
  const sanitized = await sanitizeThread(
    thread,
    attributions,
    {
      gold: record?.gold ?? null,
      goldSubject: record?.goldSubject ?? null,
      prNumbers: record?.prNumbers ?? [],
      knownShas: resolution ? resolution.resolutions.flatMap((r) => (r.sha ? [r.sha] : [])) : [],
    },
    git?.objects ?? null,
  );
  if (sanitized.reasons.length > 0) {
    reasons.push(...sanitized.reasons);
    decision = 'reject';
  }
  return {
    repo: thread.repo,
    number: thread.number,
    decision,
    reasons: [...new Set(reasons.map((r) => r.code))],
    evidence: [...new Set(reasons.map((r) => `${r.code}: ${r.evidence}`))],
    attributions: attributions.map((a) => ({ text: a.ref.text, kind: a.kind, where: where(a), quote: a.sentence.text, hedged: a.hedged })),
    gold: goldOf(resolution, git !== null && text.reasons.some((r) => r.code === 'cross-repository')),
    cutoff: record?.cutoff ?? null,
    report: { text: sanitized.report.text, deletions: sanitized.report.deletions },
    leak_check: { ok: sanitized.audit.ok, findings: sanitized.audit.findings },
  };
}

/** The git directory of DIR: a bare repository as is, a work tree's `.git`. */
export async function openGitTarget(dir: string, cwd: string): Promise<GitTarget> {
  const abs = resolve(cwd, dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new UsageError(`--git-dir ${dir}: no such directory`);
  const gitDir = existsSync(join(abs, '.git')) ? join(abs, '.git') : abs;
  const probe = await runGit(gitDir, ['rev-parse', '--git-dir'], { allowExit: [0, 128] });
  if (probe.exitCode !== 0) throw new UsageError(`--git-dir ${dir}: not a git repository`);
  return { gitDir, objects: BatchObjects.open(gitDir), branch: await defaultBranchOf(gitDir) };
}

export const registerInspectBackward: RegisterCommand = (program, ctx) => {
  groupCommand(program, 'inspect', 'look at intermediate results without a database')
    .command('backward')
    .description('run attribute → resolve → validate → sanitize → audit on imported threads and print one JSON object per thread')
    .requiredOption('--threads <file>', 'threads in the import format (JSONL), or - for stdin')
    .option('--git-dir <dir>', 'repository to resolve attributions against (bare mirror or work tree)')
    .action(async (opts: { threads: string; gitDir?: string }) => {
      const file = opts.threads === '-' ? '-' : resolve(ctx.io.cwd, opts.threads);
      if (file !== '-' && !existsSync(file)) throw new UsageError(`--threads ${opts.threads}: file not found`);
      const git = opts.gitDir ? await openGitTarget(opts.gitDir, ctx.io.cwd) : null;
      let bad = 0;
      try {
        for await (const line of readJsonl(file)) {
          const at = `${opts.threads}:${line.lineNumber}`;
          if (line.error) {
            bad += 1;
            ctx.io.stderr.write(`${at}: ${line.error}\n`);
            continue;
          }
          try {
            printJson(ctx.io, await inspectThread(threadFromImport(line.value), git));
          } catch (error) {
            if (!(error instanceof MinerError) || error.kind === 'internal') throw error;
            bad += 1;
            ctx.io.stderr.write(`${at}: ${describeError(error)}\n`);
          }
        }
      } finally {
        await git?.objects.close();
      }
      if (bad > 0) {
        ctx.io.stderr.write(`${opts.threads}: ${bad} line${bad === 1 ? '' : 's'} could not be inspected\n`);
        ctx.setExitCode(3);
      }
    });
};
