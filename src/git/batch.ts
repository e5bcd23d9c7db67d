import { CatFileProcess, type CatFileAnswer, type CatFileProtocol } from './cat-file.js';
import { runGit } from './runner.js';

export type NameStatus = 'ok' | 'ambiguous' | 'missing' | 'not-commit';

export interface NameResolution {
  input: string;
  status: NameStatus;
  sha: string | null;
  /** Object type of the answer ('commit', 'blob', …), null when missing or ambiguous. */
  type: string | null;
  /** Full SHAs of the commits an ambiguous abbreviation could mean, sorted. */
  candidates: string[];
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  /** Unix seconds. */
  authorTime: number;
  committerTime: number;
  subject: string;
  message: string;
}

const HEX = /^[0-9a-fA-F]{4,40}$/;

/**
 * Bulk object lookups over two long-lived `git cat-file` processes of one repository: one answers
 * names → type (batch-check), the other reads contents (batch). Each keeps one request
 * queue; concurrent callers are answered in order. Children are killed at process exit.
 */
export class BatchObjects {
  private check: CatFileProcess | null = null;
  private batch: CatFileProcess | null = null;
  private closed = false;

  private constructor(
    readonly gitDir: string,
    private readonly protocol: CatFileProtocol,
  ) {}

  /** Children start on first use. `protocol` 'classic' uses plain --batch-check/--batch (older git). */
  static open(gitDir: string, options: { protocol?: CatFileProtocol } = {}): BatchObjects {
    return new BatchObjects(gitDir, options.protocol ?? 'command');
  }

  /** Pids of the running children (for diagnostics and the orphan test). */
  pids(): number[] {
    return [this.check?.pid, this.batch?.pid].filter((p): p is number => typeof p === 'number');
  }

  private checkProcess(): CatFileProcess {
    if (this.closed) throw new Error(`${this.gitDir}: object reader is closed`);
    this.check ??= new CatFileProcess(this.gitDir, 'check', this.protocol);
    return this.check;
  }

  private batchProcess(): CatFileProcess {
    if (this.closed) throw new Error(`${this.gitDir}: object reader is closed`);
    this.batch ??= new CatFileProcess(this.gitDir, 'batch', this.protocol);
    return this.batch;
  }

  /** Starts both children now (they start lazily otherwise). */
  warm(): void {
    this.checkProcess();
    this.batchProcess();
  }

  /** Raw `--batch-check` answers for arbitrary object names (`HEAD`, `v1.0^{commit}`, `rev:path`). */
  async info(names: readonly string[]): Promise<CatFileAnswer[]> {
    return this.checkProcess().request(names);
  }

  /**
   * Resolves abbreviated or full hex (and, for convenience, other revision names) to commits.
   * An abbreviation shared by several objects is `ambiguous` with the commit candidates listed,
   * except when exactly one of the objects is a commit: an attribution names a commit, so that
   * one is meant (git's own commit-ish disambiguation does the same). A revision name that
   * reaches an annotated tag resolves to the tagged commit.
   */
  async resolve(names: readonly string[]): Promise<NameResolution[]> {
    const queries = names.map(normalizeName);
    const usable = queries.map((q) => q !== null);
    const answers = await this.info(queries.filter((q): q is string => q !== null));
    const out: NameResolution[] = [];
    const ambiguous: number[] = [];
    let k = 0;
    for (const [i, input] of names.entries()) {
      if (!usable[i]) {
        out.push({ input, status: 'missing', sha: null, type: null, candidates: [] });
        continue;
      }
      const a = answers[k++]!;
      if (a.kind === 'missing') out.push({ input, status: 'missing', sha: null, type: null, candidates: [] });
      else if (a.kind === 'ambiguous') {
        out.push({ input, status: 'ambiguous', sha: null, type: null, candidates: [] });
        ambiguous.push(i);
      } else out.push({ input, status: a.type === 'commit' ? 'ok' : 'not-commit', sha: a.sha, type: a.type, candidates: [] });
    }
    await this.peelTagNames(queries, out);
    if (ambiguous.length > 0) await this.fillCandidates(ambiguous.map((i) => ({ index: i, prefix: queries[i]! })), out);
    return out;
  }

  /**
   * A ref name that reaches an annotated tag (`v1.2.0`) means the commit it tags, as in git's
   * commit-ish rules. A hex name that is a tag object stays `not-commit`: hex in a report names an
   * object, and a tag object is not the commit that was meant.
   */
  private async peelTagNames(queries: (string | null)[], out: NameResolution[]): Promise<void> {
    const tags = out.flatMap((r, i) => (r.status === 'not-commit' && r.type === 'tag' && !HEX.test(queries[i]!) ? [i] : []));
    if (tags.length === 0) return;
    const peeled = await this.info(tags.map((i) => `${out[i]!.sha}^{commit}`));
    for (const [j, i] of tags.entries()) {
      const a = peeled[j]!;
      if (a.kind === 'object' && a.type === 'commit') Object.assign(out[i]!, { status: 'ok', sha: a.sha, type: 'commit' });
    }
  }

  /** For ambiguous prefixes: every object with that prefix (one rev-parse per 500), kept if a commit. */
  private async fillCandidates(items: { index: number; prefix: string }[], out: NameResolution[]): Promise<void> {
    for (let s = 0; s < items.length; s += 500) {
      const chunk = items.slice(s, s + 500);
      const prefixes = [...new Set(chunk.map((c) => c.prefix))];
      const r = await runGit(this.gitDir, ['rev-parse', ...prefixes.map((p) => `--disambiguate=${p}`)]);
      const all = [...new Set(r.stdout.split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l)))];
      const types = await this.info(all);
      const commits = all.filter((_, j) => types[j]!.type === 'commit').sort();
      for (const { index, prefix } of chunk) {
        const mine = commits.filter((c) => c.startsWith(prefix));
        const res = out[index]!;
        if (mine.length === 1) Object.assign(res, { status: 'ok', sha: mine[0]!, type: 'commit', candidates: [] });
        else if (mine.length === 0) Object.assign(res, { status: 'not-commit', candidates: [] });
        else res.candidates = mine;
      }
    }
  }

  /** Type and contents of each named object, in order (`content` null when missing or ambiguous). */
  async objects(names: readonly string[]): Promise<CatFileAnswer[]> {
    const usable = names.map((n) => !/[\n\r\0]/.test(n));
    const answers = await this.batchProcess().request(names.filter((_, i) => usable[i]));
    let k = 0;
    return names.map((name, i) => (usable[i] ? answers[k++]! : { name, kind: 'missing', sha: null, type: null, size: 0, content: null }));
  }

  /** Header and message of a commit, or null when the name is missing or not a commit. */
  async commit(sha: string): Promise<CommitInfo | null> {
    if (/[\n\r\0]/.test(sha)) return null;
    const [a] = await this.batchProcess().request([sha]);
    if (!a || a.kind !== 'object' || a.type !== 'commit' || !a.content) return null;
    return parseCommit(a.sha!, a.content.toString('utf8'));
  }

  /** Text of the blob at `rev:path`, or null when absent or not a blob. */
  async blob(rev: string, path: string): Promise<string | null> {
    const name = `${rev}:${path}`;
    if (/[\n\r\0]/.test(name)) {
      const r = await runGit(this.gitDir, ['cat-file', '-p', name], { allowExit: [0, 128] });
      return r.exitCode === 0 ? r.stdout : null;
    }
    const [a] = await this.batchProcess().request([name]);
    if (!a || a.kind !== 'object' || a.type !== 'blob' || !a.content) return null;
    return a.content.toString('utf8');
  }

  /** Closes both children; idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const procs = [this.check, this.batch];
    this.check = null;
    this.batch = null;
    await Promise.all(procs.map((p) => p?.close()));
  }
}

/** Hex is lowercased; names that cannot travel the line protocol are unusable (null). */
function normalizeName(name: string): string | null {
  const t = name.trim();
  if (t.length === 0 || /[\s\0]/.test(t)) return null;
  return HEX.test(t) ? t.toLowerCase() : t;
}

/** Parses a raw commit object. */
export function parseCommit(sha: string, raw: string): CommitInfo {
  const split = raw.indexOf('\n\n');
  const headerText = split < 0 ? raw : raw.slice(0, split);
  const message = split < 0 ? '' : raw.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author = { name: '', email: '', time: 0 };
  let committerTime = 0;
  for (const line of headerText.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header (gpgsig)
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseIdent(value);
    else if (key === 'committer') committerTime = parseIdent(value).time;
  }
  const firstPara = message.split(/\n\s*\n/)[0] ?? '';
  const subject = firstPara.split('\n').map((l) => l.trim()).filter((l) => l.length > 0).join(' ');
  return { sha, tree, parents, authorName: author.name, authorEmail: author.email, authorTime: author.time, committerTime, subject, message };
}

function parseIdent(value: string): { name: string; email: string; time: number } {
  const m = /^(.*?) ?<([^>]*)> (-?\d+)(?: [+-]\d{4})?$/.exec(value);
  if (!m) return { name: value, email: '', time: 0 };
  return { name: m[1]!, email: m[2]!, time: Number(m[3]) };
}
