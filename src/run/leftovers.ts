/**
 * What killed runs leave behind, cleaned when the next writer starts (it holds the database's
 * lock, so nothing of this database is running): `runs` rows without `finished_at` (marked
 * `interrupted`), partial probe logs, the pairs runner's scratch directories in the system temp
 * dir, and probe worktrees registered in the mirrors. Files named after a pid are removed only
 * once that pid is gone (shards share the data dir and the temp dir).
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../store/db.js';
import { PAIRS_SCRATCH_PREFIX } from '../pairs/git.js';
import { PARTIAL_LOG_PREFIX } from '../probe/exec.js';
import { pruneStaleWorktrees } from '../probe/worktree.js';
import { isProcessAlive } from '../util/pid.js';

export interface LeftoverSummary {
  readonly interruptedRuns: number;
  readonly partialLogs: number;
  readonly pairScratch: number;
  readonly probeWorktrees: number;
}

/** Files without a pid in their name (older versions) count as left over once this old. */
const UNNAMED_AGE_MS = 24 * 3600 * 1000;

/** The pid a `<prefix><pid>-…` name carries, or null. */
function pidOf(name: string, prefix: string): number | null {
  const m = /^(\d+)-/.exec(name.slice(prefix.length));
  return m ? Number(m[1]) : null;
}

function stale(path: string, name: string, prefix: string, now: number): boolean {
  const pid = pidOf(name, prefix);
  if (pid !== null) return !isProcessAlive(pid);
  try {
    return now - statSync(path).mtimeMs > UNNAMED_AGE_MS;
  } catch {
    return false;
  }
}

function removeStale(dir: string, prefix: string, now: number): number {
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of entries) {
    if (!name.startsWith(prefix)) continue;
    const path = join(dir, name);
    if (!stale(path, name, prefix, now)) continue;
    try {
      rmSync(path, { recursive: true, force: true });
      removed += 1;
    } catch {
      // someone else's, or gone already
    }
  }
  return removed;
}

export async function cleanLeftovers(opts: { store: Store; dataDir: string; tmp?: string; now?: Date }): Promise<LeftoverSummary> {
  const now = (opts.now ?? new Date()).getTime();
  const interruptedRuns = opts.store.runs.markInterrupted();
  const partialLogs = removeStale(join(opts.dataDir, 'logs'), PARTIAL_LOG_PREFIX, now);
  const pairScratch = removeStale(opts.tmp ?? tmpdir(), PAIRS_SCRATCH_PREFIX, now);
  let probeWorktrees = 0;
  const mirrors = join(opts.dataDir, 'mirrors');
  const workRoots = [join(opts.dataDir, 'work', 'probe'), join(opts.dataDir, 'work', 'transplant')].filter((d) => existsSync(d));
  if (existsSync(mirrors)) {
    for (const m of readdirSync(mirrors)) {
      const gitDir = join(mirrors, m);
      if (!m.endsWith('.git') || !existsSync(join(gitDir, 'worktrees'))) continue;
      for (const root of workRoots.length > 0 ? workRoots : [join(opts.dataDir, 'work', 'probe')]) probeWorktrees += await pruneStaleWorktrees(gitDir, root);
    }
  }
  return { interruptedRuns, partialLogs, pairScratch, probeWorktrees };
}
