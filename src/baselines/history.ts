/**
 * The visible-history index of one repository for the Backward baselines: every commit read once
 * through one streamed `git log -p --raw` (never one process per commit), its message and its
 * changed paths + unified diff indexed for BM25, its parents kept to compute what a case may see
 * (the ancestors of its cutoff). Built once per repository per run and extended when a cutoff
 * lies outside what was read.
 */
import { gitLines } from '../git/runner.js';
import { Bm25Index, tokenize } from './bm25.js';

/** At most this many characters of a commit's unified diff are indexed (the paths always are). */
export const DIFF_INDEX_CHARS = 64 * 1024;

export interface HistoryCommit {
  readonly sha: string;
  readonly parents: readonly string[];
  /** Committer time, Unix seconds. */
  readonly time: number;
  readonly subject: string;
  /** Paths the commit changes against its first parent (both sides of a rename). */
  readonly paths: readonly string[];
}

const HEADER = '\x1e';
const END_OF_MESSAGE = '\x1d';

/** `git log` arguments: header line, message, end marker, then raw lines and the patch. */
export function historyLogArgs(revs: readonly string[]): string[] {
  return [
    '-c', 'core.quotePath=false', 'log', '--no-color', '--no-ext-diff', '--no-textconv', '--diff-merges=off', '--no-renames',
    '--raw', '-p', `--format=${HEADER}%H %P%x1f%ct%n%B%n${END_OF_MESSAGE}`, ...revs, '--',
  ];
}

interface Pending {
  sha: string;
  parents: string[];
  time: number;
  message: string[];
  paths: string[];
  diff: string[];
  diffChars: number;
  inMessage: boolean;
}

export class RepoHistory {
  readonly commits: HistoryCommit[] = [];
  readonly messages = new Bm25Index();
  readonly diffs = new Bm25Index();
  private readonly bySha = new Map<string, number>();
  /** Parent indexes of each commit (missing parents left out), resolved after each read. */
  private parentIdx: number[][] = [];
  private readonly tips: string[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly gitDir: string) {}

  indexOf(sha: string): number | undefined {
    return this.bySha.get(sha);
  }

  /** Makes sure `sha` and its ancestors are indexed (reads only what is missing). Calls are serialized. */
  ensure(sha: string): Promise<void> {
    const next = this.queue.then(async () => {
      if (this.bySha.has(sha)) return;
      await this.read([sha, ...this.tips.map((t) => `^${t}`)]);
      this.tips.push(sha);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Reads commits from git; lines are parsed as they stream. */
  async read(revs: readonly string[]): Promise<void> {
    const parser = this.parser();
    for await (const line of gitLines(this.gitDir, historyLogArgs(revs), { timeoutMs: 30 * 60_000 })) parser.line(line);
    parser.end();
    this.resolveParents();
  }

  private resolveParents(): void {
    this.parentIdx = this.commits.map((c) => c.parents.map((p) => this.bySha.get(p)).filter((j): j is number => j !== undefined));
  }

  /** Adds one commit (what the parser produces; also used to build indexes without git). */
  addCommit(c: HistoryCommit & { message: string; diff: string }): void {
    if (this.bySha.has(c.sha)) return;
    const idx = this.commits.length;
    this.commits.push({ sha: c.sha, parents: c.parents, time: c.time, subject: c.subject, paths: c.paths });
    this.bySha.set(c.sha, idx);
    this.parentIdx = [];
    const merge = c.parents.length > 1;
    // Merges are indexed as empty documents (never visible): a gold is never a merge commit.
    this.messages.add(merge ? [] : tokenize(c.message));
    this.diffs.add(merge ? [] : tokenize(`${c.paths.join('\n')}\n${c.diff}`));
  }

  /** Line-by-line parser of historyLogArgs output. */
  parser(): { line(l: string): void; end(): void } {
    let cur: Pending | null = null;
    const flush = (): void => {
      if (!cur) return;
      const message = cur.message.join('\n').trim();
      this.addCommit({
        sha: cur.sha,
        parents: cur.parents,
        time: cur.time,
        subject: message.split('\n', 1)[0] ?? '',
        paths: [...new Set(cur.paths)],
        message,
        diff: cur.diff.join('\n'),
      });
      cur = null;
    };
    return {
      line: (l: string): void => {
        if (l.startsWith(HEADER)) {
          flush();
          const [ids, time] = l.slice(1).split('\x1f');
          const [sha, ...parents] = (ids ?? '').split(' ').filter(Boolean);
          cur = { sha: sha!, parents, time: Number(time), message: [], paths: [], diff: [], diffChars: 0, inMessage: true };
          return;
        }
        if (!cur) return;
        if (cur.inMessage) {
          if (l === END_OF_MESSAGE) cur.inMessage = false;
          else cur.message.push(l);
          return;
        }
        if (l.startsWith(':')) {
          // `:100644 100644 <old> <new> M\tpath`
          const tab = l.indexOf('\t');
          if (tab > 0) cur.paths.push(...l.slice(tab + 1).split('\t'));
          return;
        }
        if (l.startsWith('diff --git ') || l.startsWith('index ') || l.startsWith('--- ') || l.startsWith('+++ ')) return;
        if (cur.diffChars >= DIFF_INDEX_CHARS || l.length === 0) return;
        const kept = l.slice(0, DIFF_INDEX_CHARS - cur.diffChars);
        cur.diff.push(kept);
        cur.diffChars += kept.length + 1;
      },
      end: flush,
    };
  }

  /**
   * The commits a case with this cutoff may see: the cutoff and its ancestors, merges left out.
   * Returns null when the cutoff is not indexed.
   */
  visibleFrom(cutoff: string): Uint8Array | null {
    const start = this.bySha.get(cutoff);
    if (start === undefined) return null;
    if (this.parentIdx.length !== this.commits.length) this.resolveParents();
    const seen = new Uint8Array(this.commits.length);
    const stack = [start];
    seen[start] = 2;
    while (stack.length > 0) {
      const i = stack.pop()!;
      for (const j of this.parentIdx[i]!) {
        if (seen[j] === 0) {
          seen[j] = 2;
          stack.push(j);
        }
      }
    }
    for (let i = 0; i < seen.length; i += 1) seen[i] = seen[i] === 2 && this.commits[i]!.parents.length <= 1 ? 1 : 0;
    return seen;
  }
}
