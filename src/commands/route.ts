/**
 * `r2v route`: the routing evaluator from the command line, for one commit of a git repository
 * (`--git-dir`) or for many self-contained cases (`--cases FILE.jsonl`).
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { EXIT, MinerError, UsageError, ValidationError, describeError } from '../errors.js';
import { readWorkflowFiles } from '../git/workflows.js';
import { EVALUATOR_ID, route, type RouteContext, type RouteResult } from '../routing/index.js';
import { readJsonl } from '../util/jsonl.js';
import type { CliContext, Io, RegisterCommand } from './types.js';

/** One line of `--cases` input. */
export const RouteCase = z
  .object({
    id: z.string().min(1),
    workflows: z.record(z.string(), z.string()),
    changed_paths: z.array(z.string()),
    context: z.object({
      event: z.literal('pull_request'),
      action: z.string().min(1),
      base_branch: z.string().min(1),
      merge_conflict: z.boolean().optional(),
    }),
  })
  .strict();
export type RouteCase = z.infer<typeof RouteCase>;

/** One line of `--cases` output, keys in the documented order. */
export function caseOutputLine(id: string, result: RouteResult): string {
  return JSON.stringify({ id, activated: result.activated, invalid: result.invalid, evaluator: result.evaluator });
}

function zodProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid case';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'line';
  return `${where}: ${issue.message}`;
}

/** Evaluates one parsed JSONL value; throws ValidationError with a one-line reason. */
export function routeCaseLine(value: unknown): string {
  const parsed = RouteCase.safeParse(value);
  if (!parsed.success) throw new ValidationError(zodProblem(parsed.error));
  const c = parsed.data;
  const files = Object.entries(c.workflows).map(([path, text]) => ({ path, text }));
  return caseOutputLine(c.id, route(files, c.changed_paths, c.context));
}

/**
 * Changed paths: a JSON array of strings when the content (trimmed) starts with `[` and ends
 * with `]`, otherwise one path per line (blank lines skipped, a trailing CR dropped).
 */
export function parseChangedPaths(text: string, source: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') && trimmed.endsWith(']')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new UsageError(`${source}: not a valid JSON array of paths (${(error as Error).message})`);
    }
    const ok = z.array(z.string()).safeParse(value);
    if (!ok.success) throw new UsageError(`${source}: the JSON array must contain only strings`);
    ok.data.forEach((p, i) => checkRepoPath(p, `${source}: item ${i + 1}`));
    return ok.data;
  }
  const paths: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.length === 0) continue;
    checkRepoPath(line, `${source}:${i + 1}`);
    paths.push(line);
  }
  return paths;
}

/**
 * A changed path is repository-relative, as git prints it: `./src/a.py`, `/src/a.py` or `src/`
 * would silently match different patterns than the real path does.
 */
function checkRepoPath(path: string, where: string): void {
  const segments = path.split('/');
  if (path.startsWith('/') || path.endsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new UsageError(`${where}: ${JSON.stringify(path)} is not a repository-relative path (write it as git prints it, e.g. src/app.py)`);
  }
}

async function readInput(file: string, io: Io, what: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`${what} ${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? describeError(error)}`);
  }
}

/** Human output: one line per workflow; with `explain`, the deciding predicate and pattern. */
export function formatHuman(result: RouteResult, explain: boolean): string {
  const lines: string[] = [];
  for (const w of result.explain) {
    if (w.skipped && !explain) continue;
    const status = w.skipped ? 'skipped' : w.invalid ? 'invalid' : w.activated ? 'activated' : 'not';
    let line = `${status.padEnd(9)}  ${w.path}`;
    if (w.invalid && !explain) line += `  ${w.invalid}`;
    if (explain) line += `  ${w.summary}`;
    lines.push(line);
  }
  lines.push(`evaluator ${result.evaluator}; ${result.activated.length} activated, ${result.invalid.length} invalid${result.limitApplied ? '; only the first 300 changed paths were evaluated' : ''}`);
  return `${lines.join('\n')}\n`;
}

interface RouteOptions {
  cases?: string;
  gitDir?: string;
  rev?: string;
  changedPaths?: string;
  baseBranch?: string;
  action: string;
  explain?: boolean;
  json?: boolean;
}

async function runCases(file: string, ctx: CliContext): Promise<void> {
  const label = file;
  const path = file === '-' ? '-' : resolve(ctx.io.cwd, file);
  let bad = 0;
  for await (const line of readJsonl(path)) {
    if (line.error !== undefined) {
      bad += 1;
      ctx.io.stderr.write(`${label}:${line.lineNumber}: ${line.error}\n`);
      continue;
    }
    try {
      ctx.io.stdout.write(`${routeCaseLine(line.value)}\n`);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      bad += 1;
      ctx.io.stderr.write(`${label}:${line.lineNumber}: ${error.message}\n`);
    }
  }
  if (bad > 0) {
    ctx.io.stderr.write(`r2v route: ${bad} bad input line${bad === 1 ? '' : 's'} in ${label}\n`);
    ctx.setExitCode(EXIT.itemsFailed);
  }
}

/** A bare repository is used as is; for a work tree, its `.git` directory. */
function gitDirOf(dir: string): string {
  const dotGit = join(dir, '.git');
  return existsSync(dotGit) && statSync(dotGit).isDirectory() ? dotGit : dir;
}

async function runGitDir(options: RouteOptions, ctx: CliContext): Promise<void> {
  const missing = (['rev', 'changedPaths', 'baseBranch'] as const).filter((k) => options[k] === undefined);
  if (missing.length > 0) {
    const flag = { rev: '--rev', changedPaths: '--changed-paths', baseBranch: '--base-branch' };
    throw new UsageError(`route --git-dir: missing ${missing.map((m) => flag[m]).join(', ')}`);
  }
  const changed = parseChangedPaths(await readInput(options.changedPaths!, ctx.io, '--changed-paths'), `--changed-paths ${options.changedPaths}`);
  const context: RouteContext = { event: 'pull_request', action: options.action, base_branch: options.baseBranch! };
  const files = await readWorkflowFiles(gitDirOf(resolve(ctx.io.cwd, options.gitDir!)), options.rev!).catch((error: unknown) => {
    // A bad directory or revision is bad input named on the command line, not a bug.
    if (error instanceof MinerError && error.kind === 'git') {
      throw new UsageError(`--git-dir ${options.gitDir} --rev ${options.rev}: cannot read the workflow files (${error.message})`, { cause: error });
    }
    throw error;
  });
  const result = route(files, changed, context);
  if (options.json) {
    const { explain, ...rest } = result;
    ctx.io.stdout.write(`${JSON.stringify(options.explain ? result : rest)}\n`);
  } else {
    ctx.io.stdout.write(formatHuman(result, options.explain === true));
  }
}

export const registerRoute: RegisterCommand = (program: Command, ctx: CliContext) => {
  program
    .command('route')
    .description(`which workflow files a pull-request event activates (evaluator ${EVALUATOR_ID})`)
    .option('--cases <file>', 'JSONL of cases ({id, workflows, changed_paths, context}); - for stdin')
    .option('--git-dir <dir>', 'git repository to read .github/workflows from')
    .option('--rev <sha>', 'commit whose workflow files are routed (with --git-dir)')
    .option('--changed-paths <file>', 'changed paths: one per line, or a JSON array; - for stdin')
    .option('--base-branch <name>', 'the pull request base (target) branch')
    .option('--action <type>', 'pull_request activity type', 'synchronize')
    .option('--explain', 'say which predicate and pattern decided each workflow')
    .option('--json', 'print the result as JSON')
    .action(async (options: RouteOptions) => {
      if (options.cases !== undefined && options.gitDir !== undefined) throw new UsageError('route: use either --cases or --git-dir, not both');
      if (options.cases !== undefined) return runCases(options.cases, ctx);
      if (options.gitDir !== undefined) return runGitDir(options, ctx);
      throw new UsageError('route: give --cases FILE or --git-dir DIR (see r2v route --help)');
    });
};
