import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MinerError } from '../errors.js';

/**
 * Creates a directory and its missing parents, one level at a time. Unlike
 * `mkdirSync(path, { recursive: true })`, which spins forever on some paths under /proc, it fails
 * at once with one line naming the directory: `usage` when a component is a file, `disk` when the
 * file system refuses.
 */
export function ensureDir(path: string, what = 'directory'): void {
  const target = resolve(path);
  const missing: string[] = [];
  let at = target;
  for (;;) {
    let isDir: boolean;
    try {
      isDir = statSync(at).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw new MinerError('usage', `${target}: cannot create ${what}: a parent is not a directory`);
      if (code !== 'ENOENT') throw new MinerError('disk', `${target}: cannot create ${what}: ${code ?? (error as Error).message}`, { cause: error });
      missing.push(at);
      const up = dirname(at);
      if (up === at) break;
      at = up;
      continue;
    }
    if (!isDir) throw new MinerError('usage', `${target}: cannot create ${what}: ${at} is not a directory`);
    break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new MinerError('disk', `${target}: cannot create ${what}: ${code ?? (error as Error).message}`, { cause: error });
    }
  }
}
