/** Shared or library code: where the Forward signals look for what a change leans on (pure). */

/** Directory names that mark shared or library code. */
export const SHARED_DIRS: ReadonlySet<string> = new Set(['shared', 'common', 'lib', 'libs', 'util', 'utils', 'core', 'internal', 'helpers', 'support']);

/** Whether `path` lives in a shared/library directory. */
export function isSharedPath(path: string): boolean {
  return path.split('/').slice(0, -1).some((s) => SHARED_DIRS.has(s));
}
