/**
 * The isolated command runner used by probes and by the coupled-pairs test runs.
 *
 * A command runs with `/bin/sh -c` in its own process group (detached), with a minimal
 * environment, and — where the machine allows it — in a fresh user, PID and network namespace
 * (`unshare -r --pid --fork --kill-child [-n]`): the shell is PID 1 of its namespace, so when it
 * ends, or when unshare is killed, the kernel kills every process in it, `setsid` daemons
 * included; and `setpriv --pdeathsig KILL` ties unshare to this process, so a killed r2v leaves
 * nothing running. Without a PID namespace the process group is what gets killed (a child that
 * left the group with setsid can survive); the result says which isolation held
 * (`pidIsolated`, `networkIsolated`). On timeout (or abort) the group is killed: SIGTERM, then
 * SIGKILL after a grace period. Output is read until the command ends and its pipes close, or
 * a short drain period after that, whatever still holds the pipes.
 *
 * Output is streamed: each stream's full SHA-256 is computed on the fly, a head of at most
 * `maxCaptureBytes` and a tail of `tailBytes` are kept in memory, and with `logDir` the full
 * log is written to `<logDir>/<sha256>.log`.
 */
import { execa } from 'execa';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { MinerError, ValidationError } from '../errors.js';

export interface ExecOptions {
  /** Run with /bin/sh -c inside cwd. The text comes from a probe spec or repo config written by the user, never from mined data. */
  command: string;
  cwd: string;
  env?: Record<string, string>;
  timeoutMs: number;
  /** Allow network access. Default false: isolated where the machine supports it. */
  network?: boolean;
  /** Use a PID namespace where the machine supports it (default true). */
  pidNamespace?: boolean;
  /** HOME for the command; default a fresh temp dir removed afterwards. */
  homeDir?: string;
  /** Write each stream's full log to `<logDir>/<sha256>.log`. */
  logDir?: string;
  /** Aborting kills the process group like a timeout (the result has timedOut false, aborted true). */
  signal?: AbortSignal;
  /** Bytes of each stream kept in `stdout`/`stderr` (default 1 MiB; the tail is always kept). */
  maxCaptureBytes?: number;
  /** Bytes of each stream kept in the tails (default 4 KiB). */
  tailBytes?: number;
  /** Delay between SIGTERM and SIGKILL of the group (default 500 ms). */
  killGraceMs?: number;
}

export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Captured output: the whole stream when it fits, else its head, a marker and its tail. */
  stdout: string;
  stderr: string;
  stdoutTail: string;
  stderrTail: string;
  /** SHA-256 of the full streams (hex). */
  stdoutDigest: string;
  stderrDigest: string;
  stdoutBytes: number;
  stderrBytes: number;
  networkIsolated: boolean;
  /** Whether the command ran in its own PID namespace (every process it started was killed with it). */
  pidIsolated: boolean;
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Whether `unshare -rn` (and, separately, a PID namespace under setpriv) works here; checked once per process. */
const isolationCheck: { net?: Promise<boolean>; pid?: Promise<boolean> } = {};

const probe = (file: string, args: string[]): Promise<boolean> =>
  execa(file, args, { reject: false, timeout: 10_000, stdin: 'ignore', env: { LC_ALL: 'C' }, extendEnv: false }).then(
    (r) => r.exitCode === 0,
    () => false,
  );

/** The argv prefix that runs a command in a PID namespace tied to this process. */
const PID_PREFIX = ['setpriv', '--pdeathsig', 'KILL', '--', 'unshare', '-r', '--pid', '--fork', '--kill-child'] as const;

export function networkIsolationAvailable(): Promise<boolean> {
  isolationCheck.net ??= probe('unshare', ['-rn', '/bin/sh', '-c', 'exit 0']);
  return isolationCheck.net;
}

export function pidIsolationAvailable(): Promise<boolean> {
  isolationCheck.pid ??= probe(PID_PREFIX[0], [...PID_PREFIX.slice(1), '/bin/sh', '-c', 'test $$ -eq 1']);
  return isolationCheck.pid;
}

/**
 * PID 1 of a probe's namespace: runs the command as its child and passes a SIGTERM on to every
 * process of the namespace (an init ignores signals it has no handler for). When it exits, the
 * kernel kills whatever is left. Its exit status is the command's (128+N when a signal ended it).
 */
const NAMESPACE_INIT = [
  "trap 'kill -TERM -1 2>/dev/null' TERM INT",
  '/bin/sh -c "$1" &',
  'c=$!',
  'while :; do wait "$c"; rc=$?; kill -0 "$c" 2>/dev/null || break; done',
  'exit "$rc"',
].join('\n');

/** The program and arguments that run `command` with the isolation available. */
export function isolatedArgv(command: string, isolation: { net: boolean; pid: boolean }): [string, string[]] {
  const sh = ['/bin/sh', '-c', command];
  if (isolation.pid) return [PID_PREFIX[0], [...PID_PREFIX.slice(1), ...(isolation.net ? ['-n'] : []), '/bin/sh', '-c', NAMESPACE_INIT, 'r2v-init', command]];
  if (isolation.net) return ['unshare', ['-rn', ...sh]];
  return [sh[0]!, sh.slice(1)];
}

/** The environment a command sees: nothing inherited but PATH. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}, path: string = process.env.PATH ?? DEFAULT_PATH): Record<string, string> {
  return { PATH: path, HOME: home, LANG: 'C', LC_ALL: 'C', TZ: 'UTC', ...extra };
}

/** Log files being written: `.partial-<pid>-<hex>.log` (cleaned at the next run once the pid is gone). */
export const PARTIAL_LOG_PREFIX = '.partial-';

/** Streams one output: digest, bounded head, tail, optional full log file. */
class StreamSink {
  private readonly hash = createHash('sha256');
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  /** Most recent chunks, at least `maxTail` bytes once that much was written. */
  private tailChunks: Buffer[] = [];
  private tailBytes = 0;
  bytes = 0;
  private file: WriteStream | null = null;
  private tmpPath: string | null = null;

  constructor(
    private readonly maxHead: number,
    private readonly maxTail: number,
    logDir: string | undefined,
  ) {
    if (logDir) {
      this.tmpPath = join(logDir, `${PARTIAL_LOG_PREFIX}${process.pid}-${randomBytes(8).toString('hex')}.log`);
      this.file = createWriteStream(this.tmpPath);
    }
  }

  write(chunk: Buffer): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    this.file?.write(chunk);
    if (this.headBytes < this.maxHead) {
      const part = Buffer.from(chunk.subarray(0, this.maxHead - this.headBytes));
      this.head.push(part);
      this.headBytes += part.length;
    }
    this.tailChunks.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailChunks.length > 1 && this.tailBytes - this.tailChunks[0]!.length >= this.maxTail) {
      this.tailBytes -= this.tailChunks.shift()!.length;
    }
  }

  private tail(): Buffer {
    const all = Buffer.concat(this.tailChunks);
    return all.length > this.maxTail ? all.subarray(all.length - this.maxTail) : all;
  }

  async finish(logDir: string | undefined): Promise<{ text: string; tail: string; digest: string }> {
    const digest = this.hash.digest('hex');
    if (this.file && this.tmpPath && logDir) {
      const file = this.file;
      await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
      const target = join(logDir, `${digest}.log`);
      const exists = await stat(target).then(() => true, () => false);
      if (exists) await rm(this.tmpPath, { force: true });
      else await rename(this.tmpPath, target);
    }
    const head = Buffer.concat(this.head);
    const tail = this.tail();
    let text: string;
    if (this.bytes <= this.maxHead) text = head.toString('utf8');
    else {
      const rest = this.bytes - head.length;
      const tailPart = tail.subarray(Math.max(0, tail.length - rest));
      const omitted = rest - tailPart.length;
      text = `${head.toString('utf8')}\n[... ${omitted} bytes omitted ...]\n${tailPart.toString('utf8')}`;
    }
    return { text, tail: tail.toString('utf8'), digest };
  }

  async discard(): Promise<void> {
    if (this.file && this.tmpPath) {
      const file = this.file;
      await new Promise<void>((resolve) => file.end(() => resolve()));
      await rm(this.tmpPath, { force: true });
    }
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

function pump(stream: Readable | null | undefined, sink: StreamSink): Promise<void> {
  if (!stream) return Promise.resolve();
  return new Promise<void>((resolve) => {
    stream.on('data', (chunk: Buffer) => sink.write(chunk));
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
    stream.once('error', () => resolve());
  });
}

/** Runs one command in isolation; never throws for the command's own failure (see exitCode/signal/timedOut). */
export async function runIsolated(opts: ExecOptions): Promise<ExecResult> {
  if (!Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0) {
    throw new ValidationError(`timeoutMs: must be a positive number of milliseconds, got ${opts.timeoutMs}`);
  }
  const cwdStat = await stat(opts.cwd).catch(() => null);
  if (!cwdStat?.isDirectory()) throw new ValidationError(`${opts.cwd}: working directory does not exist`);
  if (opts.logDir) await mkdir(opts.logDir, { recursive: true });

  const ownHome = opts.homeDir ? null : await mkdtemp(join(tmpdir(), 'r2v-home-'));
  const home = opts.homeDir ?? ownHome!;
  const isolate = !(opts.network ?? false) && (await networkIsolationAvailable());
  const pidIsolated = (opts.pidNamespace ?? true) && (await pidIsolationAvailable());
  const [file, args] = isolatedArgv(opts.command, { net: isolate, pid: pidIsolated });
  const out = new StreamSink(opts.maxCaptureBytes ?? 1 << 20, opts.tailBytes ?? 4096, opts.logDir);
  const err = new StreamSink(opts.maxCaptureBytes ?? 1 << 20, opts.tailBytes ?? 4096, opts.logDir);
  const grace = opts.killGraceMs ?? 500;

  const started = performance.now();
  let timedOut = false;
  let aborted = false;
  const timers: NodeJS.Timeout[] = [];
  try {
    const child = execa(file, args, {
      cwd: opts.cwd,
      env: isolatedEnv(home, opts.env ?? {}),
      extendEnv: false,
      detached: true,
      cleanup: false,
      stdin: 'ignore',
      buffer: false,
      reject: false,
      encoding: 'buffer',
    });
    const pid = child.pid;
    const stopGroup = (): void => {
      if (pid === undefined) return;
      killGroup(pid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), grace));
    };
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stopGroup();
      }, opts.timeoutMs),
    );
    const onAbort = (): void => {
      aborted = true;
      stopGroup();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    // The main process exiting ends the run; anything it left in its group (or namespace) is
    // killed, so a background child holding the pipes open cannot keep the run alive.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => {
        if (pid !== undefined) killGroup(pid, 'SIGKILL');
        resolve({ code, signal });
      });
    });
    const pumps = Promise.all([pump(child.stdout, out), pump(child.stderr, err)]);
    // execa's promise settles after exit and the end of the pipes, or at once when spawning failed.
    const settled = child.then(
      (r) => r,
      (e: unknown) => e as Awaited<typeof child>,
    );
    const first = await Promise.race([exited.then(() => null), settled]);
    opts.signal?.removeEventListener('abort', onAbort);
    if (first !== null && (pid === undefined || (first.exitCode === undefined && first.signal === undefined))) {
      throw new MinerError('internal', `cannot start ${file}: ${first.message ?? 'spawn failed'}`);
    }
    const exit = await exited;
    // Stop reading shortly after the exit, whatever still holds the pipes (a process that left
    // the group with setsid when there is no PID namespace).
    const drained = await Promise.race([pumps.then(() => true), sleep(grace + 500).then(() => false)]);
    if (!drained) {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    const durationMs = Math.round(performance.now() - started);
    // In a namespace the init reports a command ended by our signal as 128+N: say which signal.
    let exitCode = exit.code;
    let exitSignal: string | null = exit.signal;
    if (pidIsolated && (timedOut || aborted) && exitCode !== null && exitCode > 128) {
      const name = Object.entries(osConstants.signals).find(([, n]) => n === exitCode! - 128)?.[0];
      if (name) {
        exitSignal = name;
        exitCode = null;
      }
    }
    const o = await out.finish(opts.logDir);
    const e = await err.finish(opts.logDir);
    return {
      exitCode,
      signal: exitSignal,
      timedOut,
      aborted,
      durationMs,
      stdout: o.text,
      stderr: e.text,
      stdoutTail: o.tail,
      stderrTail: e.tail,
      stdoutDigest: o.digest,
      stderrDigest: e.digest,
      stdoutBytes: out.bytes,
      stderrBytes: err.bytes,
      networkIsolated: isolate,
      pidIsolated,
    };
  } catch (error) {
    await out.discard();
    await err.discard();
    throw error;
  } finally {
    for (const t of timers) clearTimeout(t);
    if (ownHome) await rm(ownHome, { recursive: true, force: true });
  }
}
