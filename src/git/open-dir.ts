import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { runGit } from './runner.js';

/**
 * The absolute git directory for a user-given path: a bare repository, a `.git` directory, or a
 * work tree containing `.git`. Anything else is a one-line usage error naming the path.
 */
export async function gitDirFromUser(flag: string, path: string, cwd: string): Promise<string> {
  const abs = resolve(cwd, path);
  if (!existsSync(abs)) throw new UsageError(`${flag} ${path}: no such directory`);
  for (const candidate of [abs, join(abs, '.git')]) {
    if (!existsSync(candidate)) continue;
    const r = await runGit(candidate, ['rev-parse', '--absolute-git-dir'], { allowExit: [0, 128] }).catch(() => null);
    if (r && r.exitCode === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  throw new UsageError(`${flag} ${path}: not a git repository`);
}
