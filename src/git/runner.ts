/**
 * The one place r2v starts git: runGit / runGitBuffer (whole output), gitLines / streamGit (output
 * streamed), startGit (a long-lived child spoken to over its pipes). Argument arrays only, GIT_ENV
 * always, every failure a GitError (test/unit/architecture/git-runner.test.ts holds this).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execa, type ResultPromise } from 'execa';
import { GitError } from './errors.js';

export { GitError } from './errors.js';

/** Environment for every git process: fixed locale (parsers match), never prompt. */
export const GIT_ENV: Readonly<Record<string, string>> = {
  LC_ALL: 'C',
  GIT_TERMINAL_PROMPT: '0',
};

export const DEFAULT_GIT_TIMEOUT_MS = 120_000;

/** Sees every git process runGit/runGitBuffer start (argv without --git-dir). */
export type GitSpawnObserver = (gitDir: string, args: readonly string[]) => void;
const observers = new Set<GitSpawnObserver>();

/** Registers an observer of git processes started through this runner; returns its removal. */
export function observeGitSpawns(observer: GitSpawnObserver): () => void {
  observers.add(observer);
  return () => void observers.delete(observer);
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RunGitOptions {
  /** Written to git's stdin (text, or bytes such as a binary patch). */
  input?: string | Uint8Array;
  timeoutMs?: number;
  /** Exit codes other than 0 that are data, not failure (e.g. 1 for `merge-base --is-ancestor`). */
  allowExit?: readonly number[];
  signal?: AbortSignal;
  /** Extra environment, e.g. GIT_INDEX_FILE for a scratch index (the locale and prompt settings always win). */
  env?: Readonly<Record<string, string>>;
  /** Working directory of the process (a work tree's root for commands that take pathspecs). */
  cwd?: string;
}

/**
 * Runs `git --git-dir=<gitDir> <args>` with an argument array (never a shell), LC_ALL=C and
 * GIT_TERMINAL_PROMPT=0. Throws GitError on a non-allowed exit code, a timeout or a spawn error.
 * Pass gitDir '' to run git without `--git-dir` (a clone, a command in `cwd`'s work tree, or a
 * repository named by GIT_DIR in `env`).
 */
export async function runGit(gitDir: string, args: readonly string[], opts: RunGitOptions = {}): Promise<GitResult> {
  const r = await spawnGit(gitDir, args, opts);
  return { stdout: r.stdout.toString('utf8'), stderr: r.stderr, exitCode: r.exitCode };
}

/** Like runGit, but stdout as raw bytes (object contents whose sizes are byte counts). */
export async function runGitBuffer(
  gitDir: string,
  args: readonly string[],
  opts: RunGitOptions = {},
): Promise<{ stdout: Buffer; stderr: string; exitCode: number }> {
  return spawnGit(gitDir, args, opts);
}

/** Output beyond this many bytes stops the command (a runaway listing, not data r2v can hold). */
const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;
/** How long a command stopped with SIGTERM (timeout, cancel) gets before SIGKILL. */
const FORCE_KILL_AFTER_MS = 5_000;

/**
 * Starts one git process with node's own spawn and collects its output. Not execa: the short
 * commands r2v runs by the thousand (rev-parse, cat-file, merge-base) spend most of their time in
 * process start-up, and execa's machinery doubles it (`npm run bench -- git-spawn`).
 */
function spawnGit(
  gitDir: string,
  args: readonly string[],
  opts: RunGitOptions,
): Promise<{ stdout: Buffer; stderr: string; exitCode: number }> {
  const argv = gitDir ? [`--git-dir=${gitDir}`, ...args] : [...args];
  for (const observe of observers) observe(gitDir, args);
  return new Promise((resolve, reject) => {
    const fail = (stderr: string, extra: { timedOut?: boolean; message?: string; cause?: unknown }, exitCode: number | null = null) =>
      reject(new GitError(args, exitCode, stderr, extra));
    let child: ChildProcess;
    try {
      child = spawn('git', argv, {
        env: { ...process.env, ...opts.env, ...GIT_ENV },
        cwd: opts.cwd,
        stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      fail('', { cause: error, message: `could not run git: ${(error as Error).message}` });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let stopped: 'timeout' | 'canceled' | 'too-large' | null = null;
    let spawnError: Error | null = null;
    let forceKill: NodeJS.Timeout | undefined;
    const stop = (why: 'timeout' | 'canceled' | 'too-large'): void => {
      if (stopped !== null) return;
      stopped = why;
      child.kill('SIGTERM');
      forceKill = setTimeout(() => child.kill('SIGKILL'), FORCE_KILL_AFTER_MS);
      forceKill.unref();
    };
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS);
    const onAbort = (): void => stop('canceled');
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_OUTPUT_BYTES) stop('too-large');
      else out.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => undefined); // git may exit before reading all of it (EPIPE): its exit code tells
      child.stdin!.end(opts.input);
    }
    child.on('error', (error) => {
      spawnError ??= error;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(forceKill);
      opts.signal?.removeEventListener('abort', onAbort);
      const stderr = Buffer.concat(err).toString('utf8');
      if (stopped === 'timeout') return fail(stderr, { timedOut: true });
      if (stopped === 'canceled') return fail(stderr, { message: 'canceled' });
      if (stopped === 'too-large') return fail(stderr, { message: `output larger than ${MAX_OUTPUT_BYTES} bytes` });
      if (spawnError !== null && child.pid === undefined) {
        return fail(stderr, { cause: spawnError, message: `could not run git: ${spawnError.message}` });
      }
      if (code === null) return fail(stderr, { message: `killed by ${signal ?? 'a signal'}` });
      const exitCode = code;
      if (exitCode !== 0 && !(opts.allowExit ?? []).includes(exitCode)) return fail(stderr, {}, exitCode);
      resolve({ stdout: Buffer.concat(out), stderr, exitCode });
    });
  });
}

/**
 * Streams the stdout lines of `git --git-dir=<gitDir> <args>` (without their newlines) so a long
 * listing (a whole history with patches) is never held in memory. Throws GitError after the
 * last line when git exits non-zero or cannot run.
 */
export async function* gitLines(gitDir: string, args: readonly string[], opts: Omit<RunGitOptions, 'input' | 'allowExit'> = {}): AsyncGenerator<string> {
  const argv = gitDir ? [`--git-dir=${gitDir}`, ...args] : [...args];
  const sub = execa('git', argv, {
    env: { ...opts.env, ...GIT_ENV },
    cwd: opts.cwd,
    extendEnv: true,
    stdin: 'ignore',
    timeout: opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    cancelSignal: opts.signal,
    reject: false,
    buffer: { stdout: false, stderr: true },
  });
  for await (const line of sub.iterable({ from: 'stdout' })) yield typeof line === 'string' ? line : Buffer.from(line).toString('utf8');
  const r = await sub;
  const stderr = typeof r.stderr === 'string' ? r.stderr : '';
  if (r.timedOut) throw new GitError(args, null, stderr, { timedOut: true });
  if (r.isCanceled) throw new GitError(args, null, stderr, { message: 'canceled' });
  if (r.failed && r.exitCode === undefined) {
    throw new GitError(args, null, stderr, { cause: r.cause, message: `could not run git: ${(r.cause as Error | undefined)?.message ?? r.shortMessage}` });
  }
  if ((r.exitCode ?? 0) !== 0) throw new GitError(args, r.exitCode ?? null, stderr);
}

/**
 * Runs git like runGit but hands stdout to `onData` chunk by chunk as it arrives (awaited, so a
 * slow consumer holds git back): for output too large to hold in memory (`git log` of a whole history).
 */
export async function streamGit(
  gitDir: string,
  args: readonly string[],
  onData: (chunk: Buffer) => void | Promise<void>,
  opts: Omit<RunGitOptions, 'input' | 'allowExit'> = {},
): Promise<void> {
  const argv = gitDir ? [`--git-dir=${gitDir}`, ...args] : [...args];
  for (const observe of observers) observe(gitDir, args);
  const child = execa('git', argv, {
    env: GIT_ENV,
    extendEnv: true,
    stdin: 'ignore',
    buffer: false,
    encoding: 'buffer',
    reject: false,
    timeout: opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    cancelSignal: opts.signal,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  try {
    for await (const chunk of child.stdout!) await onData(chunk as Buffer);
  } catch (error) {
    child.kill();
    await child;
    throw error;
  }
  const r = await child;
  if (r.timedOut) throw new GitError(args, null, stderr, { timedOut: true });
  if (r.isCanceled) throw new GitError(args, null, stderr, { message: 'canceled' });
  if (r.failed && r.exitCode === undefined) throw new GitError(args, null, stderr, { cause: r.cause, message: `could not run git: ${(r.cause as Error | undefined)?.message ?? r.shortMessage}` });
  if ((r.exitCode ?? 0) !== 0) throw new GitError(args, r.exitCode ?? null, stderr);
}

/** Options of a long-lived git child: pipes on all three streams, nothing buffered, raw bytes. */
const LONG_LIVED = {
  stdin: 'pipe',
  stdout: 'pipe',
  stderr: 'pipe',
  buffer: false,
  reject: false,
  encoding: 'buffer',
  cleanup: true,
  extendEnv: true,
} as const;

/**
 * Starts `git --git-dir=<gitDir> <args>` as a long-lived child (`cat-file --batch-command`) whose
 * stdin, stdout and stderr the caller speaks through. The child never rejects: the caller awaits
 * it, reads its exit code and turns a failure into a GitError.
 */
export function startGit(gitDir: string, args: readonly string[], opts: { env?: Readonly<Record<string, string>> } = {}): ResultPromise<typeof LONG_LIVED & { env: Record<string, string> }> {
  const argv = gitDir ? [`--git-dir=${gitDir}`, ...args] : [...args];
  for (const observe of observers) observe(gitDir, args);
  return execa('git', argv, { ...LONG_LIVED, env: { ...opts.env, ...GIT_ENV } });
}
