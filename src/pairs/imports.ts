/**
 * A simple import scan: does a file import one of a set of other files? Relative imports of
 * JavaScript/TypeScript (import, export-from, require, dynamic import), Python (relative and
 * dotted absolute modules), Go (package import paths) and C/C++ (`#include "..."`). It is a
 * heuristic by design: a match is a link, no match proves nothing.
 */
import { posix } from 'node:path';

export interface ImportLink {
  /** The importing file. */
  readonly from: string;
  /** The imported file it resolved to. */
  readonly to: string;
  /** The specifier as written. */
  readonly spec: string;
}

type Lang = 'js' | 'py' | 'go' | 'c' | null;

export function languageOf(path: string): Lang {
  if (/\.(?:[cm]?[jt]sx?)$/.test(path)) return 'js';
  if (path.endsWith('.py')) return 'py';
  if (path.endsWith('.go')) return 'go';
  if (/\.(?:c|h|cc|cpp|cxx|hh|hpp|hxx)$/.test(path)) return 'c';
  return null;
}

const JS_PATTERNS: readonly RegExp[] = [
  /\bimport\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"\n]+)['"]/g,
  /\bexport\s+[^'";]*?\s+from\s+['"]([^'"\n]+)['"]/g,
  /\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];
const JS_EXTS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.d.ts'];

function all(re: RegExp, text: string): RegExpExecArray[] {
  return [...text.matchAll(new RegExp(re.source, re.flags))];
}

/** Paths (exact) and path suffixes a file's imports may refer to. */
export interface ImportTargets {
  readonly exact: ReadonlyMap<string, string>;
  readonly suffix: ReadonlyMap<string, string>;
  /** Go: imported package paths; a file links when its directory ends the path. */
  readonly goPackages: readonly string[];
}

export function importTargets(path: string, text: string): ImportTargets {
  const exact = new Map<string, string>();
  const suffix = new Map<string, string>();
  const goPackages: string[] = [];
  const dir = posix.dirname(path);
  const addExact = (p: string, spec: string): void => {
    const n = posix.normalize(p);
    if (!n.startsWith('../') && n !== '..') exact.set(n.replace(/^\.\//, ''), spec);
  };
  switch (languageOf(path)) {
    case 'js':
      for (const re of JS_PATTERNS) {
        for (const m of all(re, text)) {
          const spec = m[1]!;
          if (!spec.startsWith('./') && !spec.startsWith('../')) continue;
          const base = posix.join(dir, spec);
          addExact(base, spec);
          const stem = base.replace(/\.(?:[cm]?js|jsx)$/, '');
          for (const ext of JS_EXTS) {
            addExact(base + ext, spec);
            addExact(stem + ext, spec);
            addExact(posix.join(base, `index${ext}`), spec);
          }
        }
      }
      break;
    case 'py':
      for (const m of all(/^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import[ \t]+\(?([\w \t,*]+)/gm, text)) {
        let up = dir;
        for (let i = 1; i < m[1]!.length; i += 1) up = posix.dirname(up);
        const mod = m[2]!;
        const spec = `${m[1]}${mod}`;
        if (mod) {
          const p = posix.join(up, ...mod.split('.'));
          addExact(`${p}.py`, spec);
          addExact(`${p}/__init__.py`, spec);
        } else {
          for (const name of m[3]!.split(',').map((s) => s.trim().split(/\s+/)[0]!).filter((s) => /^\w+$/.test(s))) {
            addExact(posix.join(up, `${name}.py`), spec);
            addExact(posix.join(up, name, '__init__.py'), spec);
          }
        }
      }
      {
        const modules: string[] = [];
        for (const m of all(/^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b/gm, text)) modules.push(m[1]!);
        for (const m of all(/^[ \t]*import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)/gm, text)) {
          modules.push(...m[1]!.split(',').map((s) => s.trim()));
        }
        for (const mod of modules) {
          const p = mod.split('.').join('/');
          suffix.set(`${p}.py`, mod);
          suffix.set(`${p}/__init__.py`, mod);
        }
      }
      break;
    case 'go':
      for (const m of all(/\bimport\s+(?:[\w.]+\s+)?"([^"\n]+)"/g, text)) goPackages.push(m[1]!);
      for (const block of all(/\bimport\s*\(([^)]*)\)/g, text)) {
        for (const m of all(/"([^"\n]+)"/g, block[1]!)) goPackages.push(m[1]!);
      }
      break;
    case 'c':
      for (const m of all(/^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"/gm, text)) {
        const spec = m[1]!;
        addExact(posix.join(dir, spec), spec);
        suffix.set(posix.normalize(spec).replace(/^(?:\.\.\/)+|^\.\//, ''), spec);
      }
      break;
    default:
      break;
  }
  return { exact, suffix, goPackages };
}

/** The first file of `candidates` that `path` (with content `text`) imports, or null. */
export function findImport(path: string, text: string, candidates: readonly string[]): ImportLink | null {
  const t = importTargets(path, text);
  for (const c of [...candidates].sort()) {
    if (c === path) continue;
    const exact = t.exact.get(c);
    if (exact !== undefined) return { from: path, to: c, spec: exact };
    for (const [s, spec] of t.suffix) {
      if (c === s || c.endsWith(`/${s}`)) return { from: path, to: c, spec };
    }
    if (c.endsWith('.go')) {
      const d = posix.dirname(c);
      const pkg = t.goPackages.find((g) => d !== '.' && (g === d || g.endsWith(`/${d}`)));
      if (pkg !== undefined) return { from: path, to: c, spec: pkg };
    }
  }
  return null;
}

/** Import links from any of `files` (with their text) into `targets`, sorted. */
export function findImportLinks(files: readonly { path: string; text: string }[], targets: readonly string[]): ImportLink[] {
  const out: ImportLink[] = [];
  for (const f of files) {
    const link = findImport(f.path, f.text, targets);
    if (link) out.push(link);
  }
  return out.sort((x, y) => (x.from < y.from ? -1 : x.from > y.from ? 1 : x.to < y.to ? -1 : x.to > y.to ? 1 : 0));
}
