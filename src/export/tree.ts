/**
 * Git object ids of a directory on disk, computed the way git computes them (blob and tree
 * objects, SHA-1), so an exported tree can be compared with the commit tree it came from
 * without a repository.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gitObjectDigest } from '../git/object-id.js';

export interface TreeFile {
  /** 100644, 100755 or 120000. */
  readonly mode: string;
  readonly oid: string;
}

/** git's tree entry order: byte order, with directory names compared as if they ended in '/'. */
function entryKey(name: string, isDir: boolean): Buffer {
  return Buffer.from(isDir ? `${name}/` : name, 'utf8');
}

/**
 * The tree id of `dir` and every file under it (path → mode and blob id). Empty directories
 * are skipped, as git does. `skip` names entries to leave out at any depth (none by default).
 */
export function directoryTree(dir: string, skip: ReadonlySet<string> = new Set()): { tree: string; files: Map<string, TreeFile> } {
  const files = new Map<string, TreeFile>();
  const walk = (abs: string, rel: string): Buffer | null => {
    const entries: { key: Buffer; line: Buffer }[] = [];
    for (const name of readdirSync(abs)) {
      if (skip.has(name)) continue;
      const path = join(abs, name);
      const relPath = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path);
      if (st.isDirectory()) {
        const sub = walk(path, relPath);
        if (sub) entries.push({ key: entryKey(name, true), line: Buffer.concat([Buffer.from(`40000 ${name}\0`, 'utf8'), sub]) });
        continue;
      }
      let mode: string;
      let body: Buffer;
      if (st.isSymbolicLink()) {
        mode = '120000';
        body = Buffer.from(readlinkSync(path, { encoding: 'buffer' }));
      } else if (st.isFile()) {
        mode = st.mode & 0o100 ? '100755' : '100644';
        body = readFileSync(path);
      } else continue;
      const oid = gitObjectDigest('blob', body);
      files.set(relPath, { mode, oid: oid.toString('hex') });
      entries.push({ key: entryKey(name, false), line: Buffer.concat([Buffer.from(`${mode} ${name}\0`, 'utf8'), oid]) });
    }
    if (entries.length === 0) return null;
    entries.sort((a, b) => Buffer.compare(a.key, b.key));
    return gitObjectDigest('tree', Buffer.concat(entries.map((e) => e.line)));
  };
  const root = walk(dir, '');
  return { tree: (root ?? gitObjectDigest('tree', Buffer.alloc(0))).toString('hex'), files };
}

/** Every path at any depth under `dir` whose last component is `name` (e.g. `.git`). */
export function findNamed(dir: string, name: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs)) {
      const relPath = rel ? `${rel}/${entry}` : entry;
      const path = join(abs, entry);
      if (entry === name) out.push(relPath);
      if (lstatSync(path).isDirectory()) walk(path, relPath);
    }
  };
  walk(dir, '');
  return out.sort();
}
