import { renameSync, writeFileSync } from 'node:fs';

/** Writes a file atomically: a temp file in the same directory, then rename. */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
