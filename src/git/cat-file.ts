import type { ResultPromise } from 'execa';
import { GitError } from './errors.js';
import { startGit } from './runner.js';

/** One answer of `cat-file --batch-check` (content null) or `--batch`. */
export interface CatFileAnswer {
  readonly name: string;
  /** 'missing', 'ambiguous', or an object type. */
  readonly kind: 'missing' | 'ambiguous' | 'object';
  readonly sha: string | null;
  readonly type: string | null;
  readonly size: number;
  readonly content: Buffer | null;
}

/** One request: a list of names answered together, in order. */
interface Pending {
  readonly names: readonly string[];
  readonly answers: CatFileAnswer[];
  resolve(answers: CatFileAnswer[]): void;
  reject(error: unknown): void;
}

/**
 * `command`: one `git cat-file --batch-command --buffer` (git >= 2.36) answering `info` (check) or
 * `contents` (batch) requests, flushed once per request list; `classic`: `--batch-check` /
 * `--batch`, which flush after every object (about 3x slower on large lists).
 */
export type CatFileProtocol = 'command' | 'classic';

/** Children alive in this process, killed by one process 'exit' listener. */
const liveChildren = new Set<ResultPromise>();

function killAllOnExit(): void {
  for (const child of liveChildren) child.kill('SIGKILL');
}

function track(child: ResultPromise): void {
  if (liveChildren.size === 0) process.on('exit', killAllOnExit);
  liveChildren.add(child);
}

function untrack(child: ResultPromise): void {
  liveChildren.delete(child);
  if (liveChildren.size === 0) process.off('exit', killAllOnExit);
}

/** Number of cat-file children this process has open (for tests and diagnostics). */
export function openCatFileCount(): number {
  return liveChildren.size;
}

/**
 * A long-lived `git cat-file` process in check (header only) or batch (header and contents)
 * mode. Requests are written to its stdin as they come; answers arrive in the same order and
 * settle the queue of pending requests, oldest first.
 */
export class CatFileProcess {
  private readonly child: ResultPromise;
  private readonly queue: Pending[] = [];
  private buf: Buffer = Buffer.alloc(0);
  /** Chunks held back while a large object's contents are still arriving. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private need = 0;
  private stderr = '';
  private failure: GitError | null = null;
  private closed = false;
  readonly pid: number | undefined;

  constructor(
    readonly gitDir: string,
    readonly mode: 'check' | 'batch',
    readonly protocol: CatFileProtocol = 'command',
  ) {
    const args = ['cat-file', protocol === 'command' ? '--batch-command' : mode === 'check' ? '--batch-check' : '--batch'];
    if (protocol === 'command') args.push('--buffer');
    this.child = startGit(gitDir, args);
    this.pid = this.child.pid;
    track(this.child);
    this.child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    this.child.stdin!.on('error', () => undefined);
    void this.child.then((r) => {
      untrack(this.child);
      const exitCode = typeof r.exitCode === 'number' ? r.exitCode : null;
      this.fail(new GitError(args, exitCode, this.stderr, { message: this.closed ? 'closed' : `exited unexpectedly (code ${exitCode ?? r.signal ?? 'none'})` }));
    });
  }

  /** Sends one request per name; resolves with one answer per name, in order. */
  request(names: readonly string[]): Promise<CatFileAnswer[]> {
    if (this.failure) return Promise.reject(this.failure);
    for (const n of names) {
      if (/[\n\r\0]/.test(n)) return Promise.reject(new GitError(['cat-file'], null, '', { message: `object name contains a line break: ${JSON.stringify(n)}` }));
    }
    if (names.length === 0) return Promise.resolve([]);
    const promise = new Promise<CatFileAnswer[]>((resolve, reject) => this.queue.push({ names, answers: [], resolve, reject }));
    const verb = this.mode === 'check' ? 'info ' : 'contents ';
    this.child.stdin!.write(this.protocol === 'command' ? `${names.map((n) => `${verb}${n}\n`).join('')}flush\n` : names.map((n) => `${n}\n`).join(''));
    return promise;
  }

  private onData(chunk: Buffer): void {
    try {
      if (this.need > 0) {
        this.held.push(chunk);
        this.heldBytes += chunk.length;
        if (this.heldBytes < this.need) return;
        chunk = Buffer.concat(this.held);
        this.held = [];
        this.heldBytes = 0;
        this.need = 0;
      }
      this.consume(chunk);
    } catch (error) {
      this.fail(error instanceof GitError ? error : new GitError(['cat-file'], null, this.stderr, { cause: error, message: String(error) }));
      this.child.kill('SIGKILL');
    }
  }

  private consume(chunk: Buffer): void {
    const buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    let pos = 0;
    while (this.queue.length > 0) {
      const req = this.queue[0]!;
      const nl = buf.indexOf(10, pos);
      if (nl < 0) break;
      const name = req.names[req.answers.length]!;
      const parsed = parseHeader(buf.toString('utf8', pos, nl), name);
      if (parsed.kind === 'object' && this.mode === 'batch') {
        const end = nl + 1 + parsed.size;
        if (buf.length < end + 1) {
          this.need = end + 1 - pos; // wait for the whole object before parsing again
          break;
        }
        req.answers.push({ ...parsed, content: Buffer.from(buf.subarray(nl + 1, end)) });
        pos = end + 1;
      } else {
        req.answers.push(parsed);
        pos = nl + 1;
      }
      if (req.answers.length === req.names.length) {
        this.queue.shift();
        req.resolve(req.answers);
      }
    }
    this.buf = buf.subarray(pos);
    if (this.need > 0) {
      this.held = [this.buf];
      this.heldBytes = this.buf.length;
      this.buf = Buffer.alloc(0);
    }
  }

  private fail(error: GitError): void {
    if (!this.failure) this.failure = error;
    for (const req of this.queue.splice(0)) req.reject(error);
  }

  /** Ends stdin (git exits at EOF) and kills the child if it lingers. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    try {
      await this.child;
    } finally {
      clearTimeout(timer);
      untrack(this.child);
    }
  }
}

/** Parses `<sha> <type> <size>`, `<name> missing` or `<name> ambiguous`. */
export function parseHeader(line: string, name: string): CatFileAnswer {
  if (line.endsWith(' missing')) return { name, kind: 'missing', sha: null, type: null, size: 0, content: null };
  if (line.endsWith(' ambiguous')) return { name, kind: 'ambiguous', sha: null, type: null, size: 0, content: null };
  const parts = line.split(' ');
  if (parts.length !== 3 || !/^[0-9a-f]{40,64}$/.test(parts[0]!)) {
    throw new GitError(['cat-file'], null, '', { message: `unexpected answer for ${JSON.stringify(name)}: ${JSON.stringify(line)}` });
  }
  return { name, kind: 'object', sha: parts[0]!, type: parts[1]!, size: Number(parts[2]), content: null };
}
