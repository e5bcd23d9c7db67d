/**
 * Generated bench repositories: one `git fast-import` stream of synthetic commits, written once
 * into a bare repository under the temp directory and reused by later runs (a marker file says it
 * is complete).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

export interface FastImportWriter {
  /** Adds a commit on `ref` changing `path` to `body`; returns its mark (0 for "no parent"). */
  commit(ref: string, message: string, from: number, merge: number | null, path: string, body: (mark: number) => string): number;
  /** Commits written so far. */
  readonly count: number;
}

const data = (text: string): string => `data ${Buffer.byteLength(text)}\n${text}\n`;

/** The bare repository `name` under the temp directory, built by `build` unless a complete one is there. */
export async function cachedFastImportRepo(name: string, build: (w: FastImportWriter) => void, options: { repack?: boolean } = {}): Promise<string> {
  const dir = join(tmpdir(), name);
  if (existsSync(join(dir, 'r2v-bench-complete'))) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await execa('git', ['init', '-q', '--bare', '--initial-branch=main', dir]);
  const parts: string[] = [];
  let mark = 0;
  let time = 1_600_000_000;
  build({
    commit(ref, message, from, merge, path, body) {
      mark += 1;
      time += 60;
      parts.push(
        `commit ${ref}\nmark :${mark}\ncommitter Dev <dev@example.com> ${time} +0000\n${data(message)}${from ? `from :${from}\n` : ''}${merge ? `merge :${merge}\n` : ''}M 100644 inline ${path}\n${data(body(mark))}`,
      );
      return mark;
    },
    get count() {
      return mark;
    },
  });
  await execa('git', [`--git-dir=${dir}`, 'fast-import', '--quiet'], { input: parts.join('') });
  if (options.repack) await execa('git', [`--git-dir=${dir}`, 'repack', '-adq']);
  await writeFile(join(dir, 'r2v-bench-complete'), `${new Date().toISOString()}\n`);
  return dir;
}
