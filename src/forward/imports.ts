/**
 * Which tracked files a source file imports (relative JS/TS imports, Python modules, C includes),
 * resolved against the tree at base. Pure; used to find the shared/library code a change leans on.
 */
import { posix } from 'node:path';

/** Directory names that mark shared or library code. */
export const SHARED_DIRS: ReadonlySet<string> = new Set(['shared', 'common', 'lib', 'libs', 'util', 'utils', 'core', 'internal', 'helpers', 'support']);

const JS_EXTS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_SPEC = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"\n]+)['"]/g;
const PY_FROM = /^\s*from\s+(\.*)([\w.]*)\s+import\b/gm;
const PY_IMPORT = /^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gm;
const C_INCLUDE = /^\s*#\s*include\s+"([^"\n]+)"/gm;

/** Tracked paths that `path` (with content `text`) imports, sorted, without itself. */
export function importTargets(path: string, text: string, tree: ReadonlySet<string>): string[] {
  const dir = posix.dirname(path);
  const found = new Set<string>();
  const ext = posix.extname(path);
  if (JS_EXTS.includes(ext) || ext === '.vue' || ext === '.svelte') {
    for (const m of text.matchAll(JS_SPEC)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      const hit = resolveJs(posix.normalize(posix.join(dir, spec)), tree);
      if (hit) found.add(hit);
    }
  } else if (ext === '.py') {
    for (const m of text.matchAll(PY_FROM)) {
      const dots = m[1]!.length;
      const mod = m[2]!;
      if (dots > 0) {
        let base = dir;
        for (let i = 1; i < dots; i += 1) base = posix.dirname(base);
        const hit = resolvePy(posix.join(base, ...mod.split('.').filter(Boolean)), tree);
        if (hit) found.add(hit);
      } else {
        const hit = resolvePyAbsolute(mod, tree);
        if (hit) found.add(hit);
      }
    }
    for (const m of text.matchAll(PY_IMPORT)) {
      for (const mod of m[1]!.split(',').map((s) => s.trim())) {
        const hit = resolvePyAbsolute(mod, tree);
        if (hit) found.add(hit);
      }
    }
  } else if (/^\.(c|cc|cpp|cxx|h|hh|hpp)$/.test(ext)) {
    for (const m of text.matchAll(C_INCLUDE)) {
      const local = posix.normalize(posix.join(dir, m[1]!));
      if (tree.has(local)) found.add(local);
      else {
        const suffix = `/${m[1]!}`;
        const matches = [...tree].filter((p) => p.endsWith(suffix));
        if (matches.length === 1) found.add(matches[0]!);
      }
    }
  }
  found.delete(path);
  return [...found].sort();
}

function resolveJs(base: string, tree: ReadonlySet<string>): string | null {
  if (base.startsWith('..')) return null;
  const candidates = [base];
  const ext = posix.extname(base);
  if (JS_EXTS.includes(ext)) {
    const stem = base.slice(0, -ext.length);
    for (const e of JS_EXTS) candidates.push(stem + e);
  }
  for (const e of JS_EXTS) candidates.push(base + e);
  for (const e of JS_EXTS) candidates.push(`${base}/index${e}`);
  return candidates.find((c) => tree.has(c)) ?? null;
}

function resolvePy(base: string, tree: ReadonlySet<string>): string | null {
  if (base.startsWith('..')) return null;
  for (const c of [`${base}.py`, `${base}/__init__.py`]) if (tree.has(c)) return c;
  return null;
}

function resolvePyAbsolute(mod: string, tree: ReadonlySet<string>): string | null {
  if (mod === '') return null;
  const rel = mod.split('.').join('/');
  return resolvePy(rel, tree) ?? resolvePy(`src/${rel}`, tree);
}

/** Whether `path` lives in a shared/library directory. */
export function isSharedPath(path: string): boolean {
  return path.split('/').slice(0, -1).some((s) => SHARED_DIRS.has(s));
}
