import { appendFile, mkdtemp, readFile, rm, writeFile, mkdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import { runGit } from '../../src/git/runner.js';

/** Base of the fixed clock used for commits: 2024-01-01T00:00:00Z, one hour per commit. */
export const BASE_EPOCH = Date.UTC(2024, 0, 1) / 1000;

const QUIET_CONFIG: [string, string][] = [
  ['user.name', 'Test Author'],
  ['user.email', 'author@example.com'],
  ['commit.gpgsign', 'false'],
  ['tag.gpgsign', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['core.autocrlf', 'false'],
  ['init.defaultBranch', 'main'],
  ['merge.ff', 'true'],
];

export interface CommitOptions {
  /** path → content; `null` deletes the file. */
  files?: Record<string, string | null>;
  /** Unix seconds; default: the next tick of the fixed clock. */
  time?: number;
  author?: { name: string; email: string };
  /** Allow a commit with no changes. Default true. */
  allowEmpty?: boolean;
}

/** A temporary non-bare git repository with a deterministic clock. */
export class TestRepo {
  private tick = 0;
  constructor(readonly dir: string) {}

  /** Next time of the fixed clock (seconds). */
  nextTime(): number {
    this.tick += 1;
    return BASE_EPOCH + this.tick * 3600;
  }

  async git(args: string[], env: Record<string, string> = {}): Promise<string> {
    // Through r2v's own runner: one process start, no shell, the fixed locale.
    const r = await runGit('', args, { cwd: this.dir, env });
    return r.stdout.endsWith('\n') ? r.stdout.slice(0, -1) : r.stdout;
  }

  private dateEnv(time: number, author?: { name: string; email: string }): Record<string, string> {
    const d = `${time} +0000`;
    const env: Record<string, string> = { GIT_AUTHOR_DATE: d, GIT_COMMITTER_DATE: d };
    if (author) {
      env.GIT_AUTHOR_NAME = author.name;
      env.GIT_AUTHOR_EMAIL = author.email;
    }
    return env;
  }

  /** Writes files (null = delete), stages everything, commits; returns the new SHA. */
  async commit(message: string, options: CommitOptions = {}): Promise<string> {
    for (const [path, content] of Object.entries(options.files ?? {})) {
      const full = join(this.dir, path);
      if (content === null) {
        await unlink(full).catch(() => undefined);
      } else {
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, content);
      }
    }
    await this.git(['add', '-A']);
    const time = options.time ?? this.nextTime();
    const args = ['commit', '-q', '--no-verify', '-m', message];
    if (options.allowEmpty ?? true) args.push('--allow-empty');
    await this.git(args, this.dateEnv(time, options.author));
    return this.head();
  }

  /** HEAD's commit, read from the ref file when it is a loose branch ref (no process), else from git. */
  private async head(): Promise<string> {
    const head = (await readFile(join(this.dir, '.git', 'HEAD'), 'utf8')).trim();
    if (head.startsWith('ref: refs/heads/')) {
      const sha = await readFile(join(this.dir, '.git', head.slice(5)), 'utf8').then((t) => t.trim(), () => '');
      if (/^[0-9a-f]{40}$/.test(sha)) return sha;
    }
    return this.rev('HEAD');
  }

  /** Checks out a branch; `create` makes it at `from` (default HEAD). */
  async checkout(branch: string, options: { create?: boolean; from?: string } = {}): Promise<void> {
    if (options.create) await this.git(['checkout', '-q', '-b', branch, options.from ?? 'HEAD']);
    else await this.git(['checkout', '-q', branch]);
  }

  /** Merges `rev` into the current branch. `ff: 'only' | 'never' | 'auto'`. Returns HEAD. */
  async merge(rev: string, options: { message?: string; ff?: 'only' | 'never' | 'auto'; time?: number } = {}): Promise<string> {
    const ff = options.ff ?? 'never';
    const args = ['merge', '-q', '--no-edit'];
    if (ff === 'only') args.push('--ff-only');
    if (ff === 'never') args.push('--no-ff');
    if (options.message) args.push('-m', options.message);
    args.push(rev);
    await this.git(args, this.dateEnv(options.time ?? this.nextTime()));
    return this.rev('HEAD');
  }

  async tag(name: string, rev = 'HEAD'): Promise<void> {
    await this.git(['tag', name, rev]);
  }

  /** Points any ref (e.g. refs/pull/7/head) at a commit. */
  async updateRef(ref: string, sha: string): Promise<void> {
    await this.git(['update-ref', ref, sha]);
  }

  async rev(name: string): Promise<string> {
    return this.git(['rev-parse', '--verify', `${name}^{commit}`]);
  }

  /** A bare mirror of this repository (all refs, including refs/pull/*) in a new temp dir. */
  async bareMirror(): Promise<string> {
    const dir = await tempDir('r2v-mirror-');
    await runGit('', ['clone', '-q', '--mirror', this.dir, dir]);
    return dir;
  }
}

const pending: string[] = [];

/** A temp directory removed when the current test finishes (or at process exit outside tests). */
export async function tempDir(prefix = 'r2v-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
  } catch {
    pending.push(dir);
  }
  return dir;
}

/** Removes temp dirs created outside a test (call from afterAll). */
export async function cleanupTempDirs(): Promise<void> {
  while (pending.length > 0) await rm(pending.pop()!, { recursive: true, force: true });
}

/** Creates an empty repository on branch `main` with quiet, deterministic settings. */
export async function makeRepo(options: { branch?: string } = {}): Promise<TestRepo> {
  const dir = await tempDir('r2v-repo-');
  await runGit('', ['init', '-q', `--initial-branch=${options.branch ?? 'main'}`, dir]);
  // The settings written in one go: what nine `git config` processes would write.
  const sections = new Map<string, string[]>();
  for (const [key, value] of QUIET_CONFIG) {
    const [section, name] = key.split('.') as [string, string];
    sections.set(section, [...(sections.get(section) ?? []), `\t${name} = ${value}`]);
  }
  await appendFile(join(dir, '.git', 'config'), [...sections].map(([section, lines]) => `[${section}]\n${lines.join('\n')}\n`).join(''));
  return new TestRepo(dir);
}
