/**
 * The index of a package set: `<out>/index.json`, `{ "complete": bool, "cases": [ids] }`. Each
 * finished package adds its case id; `r2v package` marks the set incomplete when it starts and
 * complete when it ends, so the audit can tell a half-written set (killed packaging, deleted
 * packages) from a whole one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';

export const PACKAGE_INDEX = 'index.json';

export interface PackageIndex {
  readonly complete: boolean;
  readonly cases: readonly string[];
}

/** The index of `out`, null when there is none, 'invalid' when it cannot be read as one. */
export function readPackageIndex(out: string): PackageIndex | null | 'invalid' {
  const path = join(out, PACKAGE_INDEX);
  if (!existsSync(path)) return null;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<PackageIndex>;
    if (typeof v.complete !== 'boolean' || !Array.isArray(v.cases) || !v.cases.every((c) => typeof c === 'string')) return 'invalid';
    return { complete: v.complete, cases: v.cases };
  } catch {
    return 'invalid';
  }
}

function write(out: string, index: PackageIndex): void {
  writeFileAtomic(join(out, PACKAGE_INDEX), `${JSON.stringify({ complete: index.complete, cases: [...new Set(index.cases)].sort() }, null, 2)}\n`);
}

const current = (out: string): PackageIndex => {
  const i = readPackageIndex(out);
  return i === null || i === 'invalid' ? { complete: true, cases: [] } : i;
};

/** Records a finished package. */
export function addToPackageIndex(out: string, caseId: string): void {
  const i = current(out);
  write(out, { complete: i.complete, cases: [...i.cases, caseId] });
}

/** Marks the set as being written (false) or finished (true). */
export function markPackageIndex(out: string, complete: boolean): void {
  write(out, { complete, cases: current(out).cases });
}
