/**
 * What the Forward signals read from git at base: the tracked paths and, for the changed files
 * present at base, the files they import. The only I/O of src/forward.
 */
import { listTree } from '../git/forward.js';
import type { GitRepoHandle } from '../git/repos.js';
import { importedPaths } from '../util/source-imports.js';

/** At most this many changed files are read for imports, each at most this many bytes. */
export const IMPORT_SCAN_FILES = 100;
export const IMPORT_SCAN_BYTES = 512 * 1024;

const SCANNED = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|vue|svelte|py|c|cc|cpp|cxx|h|hh|hpp)$/;

export interface BaseInputs {
  readonly tree: string[];
  readonly imports: Map<string, string[]>;
}

export async function readBaseInputs(handle: GitRepoHandle, base: string, changed: readonly string[]): Promise<BaseInputs> {
  const tree = await listTree(handle.gitDir, base);
  const treeSet = new Set(tree);
  const imports = new Map<string, string[]>();
  const scanned = changed.filter((p) => treeSet.has(p) && SCANNED.test(p)).slice(0, IMPORT_SCAN_FILES);
  for (const path of scanned) {
    const text = await handle.objects.blob(base, path);
    if (text === null || text.length > IMPORT_SCAN_BYTES) continue;
    const targets = importedPaths(path, text, treeSet);
    if (targets.length > 0) imports.set(path, targets);
  }
  return { tree, imports };
}
