import { MinerError } from '../errors.js';

/** stderr substrings that mean the network or the remote failed for now (retry), not for good. */
const TRANSIENT_STDERR: readonly string[] = [
  'could not resolve host',
  'connection timed out',
  'connection reset',
  'connection refused',
  'operation timed out',
  'failed to connect',
  'early eof',
  'the remote end hung up unexpectedly',
  'rpc failed',
  'unexpected disconnect',
  'temporary failure in name resolution',
  'http/2 stream',
  'gnutls_handshake',
  'ssl_connect',
  'returned error: 429',
  'returned error: 500',
  'returned error: 502',
  'returned error: 503',
  'returned error: 504',
];

/**
 * stderr substrings that mean the remote repository itself is broken: the "early EOF" that
 * follows them is a consequence, and retrying gives the same answer.
 */
const BROKEN_REMOTE_STDERR: readonly string[] = [
  'possible repository corruption',
  'did not send all necessary objects',
  'missing blob object',
  'missing tree object',
  'missing commit object',
];

export function isTransientGitStderr(stderr: string): boolean {
  const s = stderr.toLowerCase();
  if (BROKEN_REMOTE_STDERR.some((t) => s.includes(t))) return false;
  return TRANSIENT_STDERR.some((t) => s.includes(t));
}

/** Removes `user:password@` from every URL in `text` (tokens never reach messages or logs). */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1');
}

/**
 * Last non-empty lines of stderr, joined on one line, for messages. Terminal escapes and control
 * characters (git's sideband can carry a NUL) are dropped.
 */
export function stderrTail(stderr: string, lines = 3): string {
  return stderr
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    .split('\n')
    // A progress line rewritten with CR shows its last state.
    .map((l) => (l.split('\r').filter((part) => part.trim().length > 0).pop() ?? '').replace(/[\x00-\x1f\x7f]/g, '').trim())
    .filter((l) => l.length > 0)
    .slice(-lines)
    .join(' | ');
}

/**
 * A git command that failed. Kind `git` (fails the item), or `transient` when stderr says the
 * network failed, or `timeout` when it ran out of time.
 */
export class GitError extends MinerError {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderrTail: string;
  constructor(
    args: readonly string[],
    exitCode: number | null,
    stderr: string,
    options?: { cause?: unknown; timedOut?: boolean; message?: string },
  ) {
    const tail = redactUrls(stderrTail(stderr));
    const kind = options?.timedOut ? 'timeout' : isTransientGitStderr(stderr) ? 'transient' : 'git';
    const what = options?.message ?? (options?.timedOut ? 'timed out' : `exited with code ${exitCode ?? 'none'}`);
    super(kind, redactUrls(`git ${args.slice(0, 3).join(' ')}: ${what}${tail ? `: ${tail}` : ''}`), options);
    this.args = args.map(redactUrls);
    this.exitCode = exitCode;
    this.stderrTail = tail;
  }
}
