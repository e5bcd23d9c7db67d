/**
 * Error model. Errors are classified where they happen (the edges) and decided on in the
 * runner and in cli.ts: `config`, `usage`, `auth` and `internal` stop a run; the others fail
 * one item and the run goes on.
 */
export const ERROR_KINDS = ['config', 'usage', 'auth', 'rate-limit', 'not-found', 'transient', 'git', 'validation', 'parse', 'disk', 'timeout', 'busy', 'internal'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class MinerError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = new.target.name;
  }
}

/** Bad configuration file or field. Exit code 2. */
export class ConfigError extends MinerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config', message, options);
  }
}

/** Bad command-line usage or bad input file named on the command line. Exit code 2. */
export class UsageError extends MinerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('usage', message, options);
  }
}

/** Input data that does not have the expected shape (a JSONL line, a spec file, an API body). */
export class ValidationError extends MinerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('validation', message, options);
  }
}

const FATAL: ReadonlySet<ErrorKind> = new Set(['config', 'usage', 'auth', 'disk', 'busy', 'internal']);

/** File-system and SQLite codes of an environment problem (disk full, read-only, no permission, I/O). */
const DISK_CODES = /^(ENOSPC|EROFS|EACCES|EPERM|EDQUOT|EIO|EMFILE|ENFILE|SQLITE_FULL|SQLITE_READONLY.*|SQLITE_IOERR.*|SQLITE_CANTOPEN.*|SQLITE_PERM)$/;

export function errorKind(error: unknown): ErrorKind {
  if (error instanceof MinerError) return error.kind;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && DISK_CODES.test(code)) return 'disk';
  return 'internal';
}

/** Fatal errors stop the whole run; the others fail only the current item. */
export function isFatal(error: unknown): boolean {
  if (error instanceof MinerError) return FATAL.has(error.kind);
  // An unclassified error inside an item is that item's failure, except disk problems.
  return errorKind(error) === 'disk';
}

export function isTransient(error: unknown): boolean {
  const kind = errorKind(error);
  return kind === 'transient' || kind === 'rate-limit' || kind === 'timeout';
}

/** One line, no stack: what a user sees for an expected error. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, internal: 1, usage: 2, itemsFailed: 3, environment: 3, interrupted: 130 } as const;
