/**
 * The commit metadata of a Backward package (`history/NNNNN.jsonl`): one canonical JSON line per
 * commit — sha, parents, timestamp (committer time, ISO 8601 UTC), author, message — in `git log`
 * order (newest first) within each part. Written streamed from git (memory bounded by one chunk),
 * read back streamed by the audit.
 */
import type { Hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { runGit, streamGit } from '../git/runner.js';
import { canonicalJson } from '../util/canonical.js';

/** Replace refs of a mirror never change what a package's history says. */
const HISTORY_LOG_ARGS = ['--no-replace-objects', 'log', '--format=%H%x00%P%x00%ct%x00%an <%ae>%x00%B%x1e'];

/** The history line of one `git log` record, or null for the empty tail. */
function historyLine(rec: string): string | null {
  const t = rec.replace(/^\n/, '');
  if (t.length === 0) return null;
  const [sha, parents, ct, author, message] = t.split('\0');
  return canonicalJson({
    sha,
    parents: parents ? parents.split(' ').filter((p) => p.length > 0) : [],
    timestamp: new Date(Number(ct) * 1000).toISOString().replace('.000Z', 'Z'),
    author,
    message: message ?? '',
  });
}

const revArgs = (revs: string | readonly string[]): string[] => [...HISTORY_LOG_ARGS, ...(typeof revs === 'string' ? [revs] : revs), '--'];

/** One line per commit reachable from `revs` (e.g. `[tip, '^base']`), buffered: for small histories and tests. */
export async function historyMetadata(gitDir: string, revs: string | readonly string[]): Promise<string[]> {
  const r = await runGit(gitDir, revArgs(revs));
  return r.stdout.split('\x1e').map(historyLine).filter((l): l is string => l !== null);
}

/**
 * Streams `git <args>`, cuts its output into records (separated by \x1e) and hands each line
 * `toLine` makes of one (null for an empty record) to `onLines`, a chunk's worth at a time:
 * memory stays bounded by one chunk however long the output. Returns the number of lines.
 */
export async function eachGitRecord(
  gitDir: string,
  args: readonly string[],
  toLine: (rec: string) => string | null,
  onLines: (lines: readonly string[]) => void,
): Promise<number> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let count = 0;
  const flush = (text: string, final: boolean): void => {
    const records = text.split('\x1e');
    rest = final ? '' : records.pop()!;
    const lines = records.map(toLine).filter((l): l is string => l !== null);
    if (lines.length > 0) onLines(lines);
    count += lines.length;
  };
  await streamGit(gitDir, args, (chunk) => flush(rest + decoder.write(chunk), false));
  flush(rest + decoder.end(), true);
  return count;
}

/**
 * Writes the lines of eachGitRecord to `path` (`line\n` each), feeding `hash` the same bytes when
 * given. Returns the number of lines written.
 */
export async function writeGitRecords(gitDir: string, args: readonly string[], path: string, toLine: (rec: string) => string | null, hash?: Hash): Promise<number> {
  const fd = openSync(path, 'w');
  try {
    return await eachGitRecord(gitDir, args, toLine, (lines) => {
      const text = `${lines.join('\n')}\n`;
      hash?.update(text);
      writeSync(fd, text);
    });
  } finally {
    closeSync(fd);
  }
}

/** historyMetadata written straight to `path` as JSON Lines (the same bytes), streamed from git. */
export function writeHistoryMetadata(gitDir: string, revs: string | readonly string[], path: string, hash?: Hash): Promise<number> {
  return writeGitRecords(gitDir, revArgs(revs), path, historyLine, hash);
}

/** Every history line of the commits reachable from `revs`, streamed, a chunk's worth at a time. */
export function eachHistoryLine(gitDir: string, revs: string | readonly string[], onLines: (lines: readonly string[]) => void): Promise<number> {
  return eachGitRecord(gitDir, revArgs(revs), historyLine, onLines);
}
