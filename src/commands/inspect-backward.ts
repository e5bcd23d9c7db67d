import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { extractWithCandidates } from '../backward/attribute.js';
import { SCORING } from '../backward/candidates.js';
import { runChain, type ChainRepo } from '../backward/chain.js';
import { findRefs } from '../backward/refs.js';
import type { ThreadResolution } from '../backward/resolve.js';
import { threadFromImport } from '../backward/thread.js';
import type { Attribution, Decision, Thread } from '../model/backward.js';
import { repoNameProblem } from '../config.js';
import { describeError, MinerError, UsageError } from '../errors.js';
import { BatchObjects } from '../git/batch.js';
import { defaultBranchOf } from '../git/history.js';
import { runGit } from '../git/runner.js';
import type { LeakFinding, Span } from '../model/deletions.js';
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
  /** The sanitized report; `deletions` are spans of `original`, the report before deletion. */
  report: { text: string; original: string; deletions: Span[] };
  leak_check: { ok: boolean; findings: LeakFinding[] };
}

/** The repository inspect resolves against (the chain's ChainRepo). */
export type GitTarget = ChainRepo;

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

/** Every candidate of the thread with the evidence that decided it (for --explain). */
export function explainCandidates(thread: Thread): { where: string; ref: string; score: number; attribution: boolean; evidence: string[] }[] {
  return extractWithCandidates(thread).candidates.map((c) => ({
    where: c.post === -1 ? 'title' : c.post === 0 ? 'body' : `comment ${c.post}`,
    ref: c.ref.ref.text,
    score: c.score,
    attribution: c.accepted,
    evidence: c.evidence.map((e) => `${e.code} ${e.weight >= 0 ? '+' : ''}${e.weight}: ${e.text}`),
  }));
}

function where(a: Attribution): string {
  return a.post === -1 ? 'title' : a.post === 0 ? 'body' : `comment ${a.post}`;
}

/**
 * attribute → resolve → validate → sanitize → audit for one thread, without a database (runChain:
 * the stages' steps and final decision). With no repository, only the text-level rules decide and
 * gold stays unresolved.
 */
export async function inspectThread(input: Thread, git: GitTarget | null): Promise<InspectedThread> {
  const thread = git ? await withResolvedAliases(input, git.objects) : input;
  const out = await runChain(thread, git);
  const { attributions, text, resolution, sanitization: sanitized } = out;
  return {
    repo: thread.repo,
    number: thread.number,
    decision: out.decision,
    reasons: [...new Set(out.reasons.map((r) => r.code))],
    evidence: [...new Set(out.reasons.map((r) => `${r.code}: ${r.evidence}`))],
    attributions: attributions.map((a) => ({ text: a.ref.text, kind: a.kind, where: where(a), quote: a.sentence.text, hedged: a.hedged })),
    gold: goldOf(resolution, git !== null && text.reasons.some((r) => r.code === 'cross-repository')),
    cutoff: resolution?.record.cutoff ?? null,
    report: { text: sanitized.report.text, original: sanitized.report.original, deletions: sanitized.report.deletions },
    leak_check: { ok: sanitized.audit.ok, findings: sanitized.audit.findings },
  };
}

/**
 * Former names learnt from the repository itself: a commit URL under another owner/name whose full
 * 40-hex SHA is a commit of this repository (a transferred or renamed repository, whose old URLs
 * GitHub redirects, or a fork holding the same commit) makes that owner/name an alias.
 */
export async function withResolvedAliases(thread: Thread, objects: BatchObjects): Promise<Thread> {
  const known = new Set([thread.repo, ...(thread.aliases ?? [])].map((r) => r.toLowerCase()));
  const asked = new Map<string, string>();
  for (const post of [{ body: thread.title }, ...thread.posts]) {
    for (const r of findRefs(post.body.slice(0, SCORING.maxScan))) {
      const u = r.ref.urlRepo;
      if (r.ref.type !== 'commit-url' || !u || known.has(u.toLowerCase()) || !/^[0-9a-f]{40}$/.test(r.ref.value)) continue;
      asked.set(r.ref.value, u);
      if (asked.size >= 20) break;
    }
  }
  if (asked.size === 0) return thread;
  const answers = await objects.resolve([...asked.keys()]);
  const found = answers.filter((a) => a.status === 'ok' && a.type === 'commit').map((a) => asked.get(a.input)!);
  if (found.length === 0) return thread;
  return { ...thread, aliases: [...new Set([...(thread.aliases ?? []), ...found])] };
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
    .option('--alias <owner/name...>', 'former names of the repository (renamed or transferred): their URLs count as its own')
    .option('--explain', 'add `candidates` to each line: every commit reference with its evidence, score and decision')
    .action(async (opts: { threads: string; gitDir?: string; alias?: string[]; explain?: boolean }) => {
      for (const a of opts.alias ?? []) {
        const problem = repoNameProblem(a);
        if (problem) throw new UsageError(`--alias ${a}: ${problem}`);
      }
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
            const imported = threadFromImport(line.value);
            const thread = opts.alias && opts.alias.length > 0 ? { ...imported, aliases: opts.alias } : imported;
            const inspected = await inspectThread(thread, git);
            printJson(ctx.io, opts.explain ? { ...inspected, candidates: explainCandidates(thread) } : inspected);
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
