/**
 * One writer per database: commands that write take `<db>.lock` (next to the database, so in the
 * data dir by default) exclusively for their whole run. The lock file names the holder (pid,
 * command, start time); a second writer stops with one line naming them. A lock whose pid is
 * gone (a killed run) is taken over. Read-only commands take no lock. Shards have their own
 * databases, so their runs do not wait for each other.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { MinerError } from '../errors.js';
import { isProcessAlive } from './pid.js';

export interface LockHolder {
  readonly pid: number;
  readonly command: string;
  readonly since: string;
  readonly host: string;
}

export interface WorkspaceLock {
  readonly path: string;
  release(): void;
}

/** Another command holds the database. Exit code 3 (an environment condition, not a usage error). */
export class WorkspaceBusyError extends MinerError {
  readonly holder: LockHolder;
  constructor(path: string, holder: LockHolder) {
    super('busy', `${path}: busy: pid ${holder.pid} is running "r2v ${holder.command}" since ${holder.since}; wait for it to finish (read-only commands such as status still work)`);
    this.holder = holder;
  }
}

export const lockPathOf = (dbPath: string): string => `${dbPath}.lock`;

/** The holder of the lock of `dbPath` when a live process holds it, else null. */
export function liveLockHolder(dbPath: string): LockHolder | null {
  const holder = readHolder(lockPathOf(dbPath));
  return holder && holder.host === hostname() && isProcessAlive(holder.pid) ? holder : null;
}

function readHolder(path: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || typeof h.command !== 'string') return null;
    return { pid: h.pid, command: h.command, since: String(h.since ?? '?'), host: String(h.host ?? '') };
  } catch {
    return null;
  }
}

/** Takes the lock of `dbPath` for `command`, or throws WorkspaceBusyError naming the holder. */
export function acquireWorkspaceLock(dbPath: string, command: string, now: Date = new Date()): WorkspaceLock {
  const path = lockPathOf(dbPath);
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockHolder = { pid: process.pid, command, since: now.toISOString(), host: hostname() };
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, `${JSON.stringify(mine)}\n`);
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        linkSync(tmp, path); // atomic: fails when the lock exists
        return { path, release: () => releaseIfMine(path, mine) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(path);
      // A lock of another machine (shared file system) is never taken over.
      if (holder && (holder.host !== mine.host || isProcessAlive(holder.pid))) throw new WorkspaceBusyError(dbPath, holder);
      // Dead holder (or unreadable lock): move it aside; only one contender's rename succeeds.
      try {
        renameSync(path, `${tmp}.stale`);
        rmSync(`${tmp}.stale`, { force: true });
      } catch {
        // someone else took it over first; try again
      }
    }
    const holder = readHolder(path);
    throw new WorkspaceBusyError(dbPath, holder ?? { pid: 0, command: 'unknown', since: '?', host: '' });
  } finally {
    rmSync(tmp, { force: true });
  }
}

function releaseIfMine(path: string, mine: LockHolder): void {
  const holder = readHolder(path);
  if (holder && holder.pid === mine.pid && holder.since === mine.since && holder.command === mine.command) rmSync(path, { force: true });
}
