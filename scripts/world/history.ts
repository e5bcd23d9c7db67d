/**
 * A deterministic git history builder over `git fast-import`: branches with file snapshots,
 * commits at fixed times by named authors, merges, tags and arbitrary refs. Thousands of commits
 * take well under a second; the result is an ordinary bare repository.
 */
import { execa } from 'execa';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV } from '../../src/git/runner.js';

export interface Author {
  readonly name: string;
  readonly email: string;
}

type Files = Map<string, string>;

interface CommitEvent {
  mark: number;
  ref: string;
  message: string;
  author: Author;
  time: number;
  from: number | null;
  merges: number[];
  files: Files;
  /** the full tree after the commit (used for merge snapshots and later edits) */
  snapshot: Files;
}

export class History {
  private marks = 0;
  private readonly events: CommitEvent[] = [];
  private readonly tips = new Map<string, { mark: number | null; files: Files }>();
  private readonly snapshots = new Map<number, Files>();
  private readonly refs: { ref: string; mark: number }[] = [];
  private readonly tags: { name: string; mark: number; time: number; message: string }[] = [];
  private shaOf = new Map<number, string>();

  constructor(readonly defaultBranch = 'main') {
    this.tips.set(defaultBranch, { mark: null, files: new Map() });
  }

  /** Creates `branch` at the tip of `from` (a branch name) or at a commit mark. */
  branch(name: string, from: string | number): void {
    if (typeof from === 'number') {
      this.tips.set(name, { mark: from, files: new Map(this.snapshots.get(from)!) });
      return;
    }
    const tip = this.tips.get(from);
    if (!tip) throw new Error(`unknown branch ${from}`);
    this.tips.set(name, { mark: tip.mark, files: new Map(tip.files) });
  }

  file(branch: string, path: string): string | undefined {
    return this.tips.get(branch)?.files.get(path);
  }

  files(branch: string): ReadonlyMap<string, string> {
    return this.tips.get(branch)!.files;
  }

  tip(branch: string): number {
    const m = this.tips.get(branch)?.mark;
    if (m === null || m === undefined) throw new Error(`branch ${branch} has no commits`);
    return m;
  }

  commit(branch: string, c: { message: string; author: Author; time: number; files: Record<string, string | null> }): number {
    const tip = this.tips.get(branch);
    if (!tip) throw new Error(`unknown branch ${branch}`);
    const files: Files = new Map();
    const snapshot = new Map(tip.files);
    for (const [p, v] of Object.entries(c.files)) {
      if (v === null) {
        snapshot.delete(p);
        files.set(p, '\u0000delete');
      } else {
        snapshot.set(p, v);
        files.set(p, v);
      }
    }
    this.marks += 1;
    const ev: CommitEvent = { mark: this.marks, ref: `refs/heads/${branch}`, message: c.message, author: c.author, time: c.time, from: tip.mark, merges: [], files, snapshot };
    this.events.push(ev);
    this.snapshots.set(ev.mark, snapshot);
    this.tips.set(branch, { mark: ev.mark, files: snapshot });
    return ev.mark;
  }

  /**
   * A merge commit on `into` with `from` as second parent. The merged tree takes `into`'s files
   * and overlays every path whose content differs between `from` and their common fork point
   * (`forkMark`): callers merge branches whose changes do not overlap.
   */
  merge(into: string, from: string | number, c: { message: string; author: Author; time: number; forkMark: number | null }): number {
    const intoTip = this.tips.get(into)!;
    const fromMark = typeof from === 'number' ? from : this.tip(from);
    const fromFiles = this.snapshots.get(fromMark)!;
    const fork = c.forkMark === null ? new Map<string, string>() : this.snapshots.get(c.forkMark)!;
    const changes: Record<string, string | null> = {};
    for (const [p, v] of fromFiles) if (fork.get(p) !== v) changes[p] = v;
    for (const p of fork.keys()) if (!fromFiles.has(p)) changes[p] = null;
    const mark = this.commit(into, { message: c.message, author: c.author, time: c.time, files: changes });
    const ev = this.events[this.events.length - 1]!;
    ev.merges.push(fromMark);
    void intoTip;
    return mark;
  }

  /** Points `refs/heads/<into>` at another branch's tip (a fast-forward). */
  fastForward(into: string, from: string): void {
    const src = this.tips.get(from)!;
    this.tips.set(into, { mark: src.mark, files: new Map(src.files) });
  }

  snapshotOf(mark: number): ReadonlyMap<string, string> {
    return this.snapshots.get(mark)!;
  }

  /** Replaces files of the most recent commit `mark` (must be a branch tip), e.g. a hand-resolved merge. */
  amendFiles(mark: number, files: Record<string, string | null>): void {
    const ev = this.events.find((e) => e.mark === mark)!;
    for (const [p, v] of Object.entries(files)) {
      if (v === null) {
        ev.snapshot.delete(p);
        ev.files.set(p, '\u0000delete');
      } else {
        ev.snapshot.set(p, v);
        ev.files.set(p, v);
      }
    }
  }

  deleteBranch(name: string): void {
    this.tips.delete(name);
  }

  ref(ref: string, mark: number): void {
    this.refs.push({ ref, mark });
  }

  tag(name: string, mark: number, time: number, message = name): void {
    this.tags.push({ name, mark, time, message });
  }

  sha(mark: number): string {
    const s = this.shaOf.get(mark);
    if (!s) throw new Error(`mark ${mark} not written yet`);
    return s;
  }

  /** Writes the history into a new bare repository at `dir`; afterwards `sha(mark)` works. */
  async write(dir: string): Promise<void> {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await execa('git', ['init', '-q', '--bare', `--initial-branch=${this.defaultBranch}`, dir], { env: GIT_ENV });
    const chunks: string[] = [];
    const data = (s: string): void => {
      chunks.push(`data ${Buffer.byteLength(s)}\n${s}\n`);
    };
    for (const ev of this.events) {
      chunks.push(`commit ${ev.ref}\nmark :${ev.mark}\n`);
      chunks.push(`author ${ev.author.name} <${ev.author.email}> ${ev.time} +0000\n`);
      chunks.push(`committer ${ev.author.name} <${ev.author.email}> ${ev.time} +0000\n`);
      data(ev.message);
      if (ev.from !== null) chunks.push(`from :${ev.from}\n`);
      for (const m of ev.merges) chunks.push(`merge :${m}\n`);
      for (const [p, v] of [...ev.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (v === '\u0000delete') chunks.push(`D ${p}\n`);
        else {
          const mode = p.endsWith('.sh') ? '100755' : '100644';
          chunks.push(`M ${mode} inline ${p}\n`);
          data(v);
        }
      }
      chunks.push('\n');
    }
    for (const [branch, tip] of this.tips) {
      if (tip.mark !== null) chunks.push(`reset refs/heads/${branch}\nfrom :${tip.mark}\n\n`);
    }
    for (const r of this.refs) chunks.push(`reset ${r.ref}\nfrom :${r.mark}\n\n`);
    for (const t of this.tags) {
      chunks.push(`tag ${t.name}\nfrom :${t.mark}\ntagger Release Bot <release@example.com> ${t.time} +0000\n`);
      data(t.message);
    }
    const marksFile = join(dir, 'r2v-marks');
    await execa('git', ['fast-import', '--quiet', `--export-marks=${marksFile}`], { cwd: dir, input: chunks.join(''), env: GIT_ENV });
    for (const line of readFileSync(marksFile, 'utf8').split('\n')) {
      const m = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
      if (m) this.shaOf.set(Number(m[1]), m[2]!);
    }
    rmSync(marksFile);
    await execa('git', ['symbolic-ref', 'HEAD', `refs/heads/${this.defaultBranch}`], { cwd: dir, env: GIT_ENV });
  }
}

