import { ensureBlobsUnder } from './partial.js';
import { runGit, runGitBuffer } from './runner.js';

export const WORKFLOWS_DIR = '.github/workflows/';

/** Parses `git ls-tree -r -z --full-tree` output into [mode, type, oid, path] entries. */
export function parseLsTree(stdout: string): { mode: string; type: string; oid: string; path: string }[] {
  const out: { mode: string; type: string; oid: string; path: string }[] = [];
  for (const rec of stdout.split('\0')) {
    if (rec.length === 0) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid] = rec.slice(0, tab).split(' ');
    out.push({ mode: mode!, type: type!, oid: oid!, path: rec.slice(tab + 1) });
  }
  return out;
}

/** Byte-wise (UTF-8) comparison, the order git and the manifests use. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Every blob under .github/workflows/ at `rev` (directly in it and in subdirectories; the routing
 * evaluator decides which ones count), sorted by path. Symlinks and submodules are skipped.
 */
export async function readWorkflowFiles(gitDir: string, rev: string): Promise<{ path: string; text: string }[]> {
  const ls = await runGit(gitDir, ['ls-tree', '-r', '-z', '--full-tree', `${rev}^{tree}`, '--', '.github/workflows']);
  const blobs = parseLsTree(ls.stdout).filter(
    (e) => e.type === 'blob' && e.mode !== '120000' && e.path.startsWith(WORKFLOWS_DIR),
  );
  if (blobs.length === 0) return [];
  // A partial mirror has the trees but not the workflow texts: fetch them in one batch.
  await ensureBlobsUnder(gitDir, rev, '.github/workflows');
  const input = blobs.map((b) => `${b.oid}\n`).join('');
  const r = await runGitBuffer(gitDir, ['cat-file', '--batch'], { input });
  const texts = parseBatchOutput(r.stdout, blobs.length);
  return blobs
    .map((b, i) => ({ path: b.path, text: texts[i]! }))
    .sort((x, y) => compareBytes(x.path, y.path));
}

/** Splits `cat-file --batch` output of n found objects into their contents (utf8). */
function parseBatchOutput(buf: Buffer, n: number): string[] {
  const out: string[] = [];
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const nl = buf.indexOf(10, pos);
    const header = buf.subarray(pos, nl).toString('utf8');
    const size = Number(header.split(' ')[2]);
    out.push(buf.subarray(nl + 1, nl + 1 + size).toString('utf8'));
    pos = nl + 1 + size + 1;
  }
  return out;
}
