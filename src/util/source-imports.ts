/**
 * The one import scan of source files (pure): which files a file imports. Relative imports of
 * JavaScript/TypeScript, Vue and Svelte (import, export-from, require, dynamic import), Python
 * (relative and dotted absolute modules), Go (package import paths) and C/C++ (`#include "..."`).
 * importTargets lists what the imports may name; findImport / findImportLinks match it against
 * candidate files (coupled pairs), importedPaths against a whole tree (Forward signals). It is a
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
  if (/\.(?:[cm]?[jt]sx?|vue|svelte)$/.test(path)) return 'js';
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

/** Whether `candidate` is a file the imports in `t` name (the importing file itself never is). */
function names(t: ImportTargets, candidate: string): string | undefined {
  const exact = t.exact.get(candidate);
  if (exact !== undefined) return exact;
  for (const [s, spec] of t.suffix) {
    if (candidate === s || candidate.endsWith(`/${s}`)) return spec;
  }
  if (candidate.endsWith('.go')) {
    const d = posix.dirname(candidate);
    const pkg = t.goPackages.find((g) => d !== '.' && (g === d || g.endsWith(`/${d}`)));
    if (pkg !== undefined) return pkg;
  }
  return undefined;
}

/** A tree's paths by file name and its Go files by directory, built once per tree. */
interface TreeIndex {
  readonly byName: Map<string, string[]>;
  readonly goByDir: Map<string, string[]>;
}
const treeIndexes = new WeakMap<ReadonlySet<string>, TreeIndex>();

function indexOf(tree: ReadonlySet<string>): TreeIndex {
  let index = treeIndexes.get(tree);
  if (!index) {
    index = { byName: new Map(), goByDir: new Map() };
    const push = (m: Map<string, string[]>, k: string, v: string): void => void (m.get(k) ?? m.set(k, []).get(k)!).push(v);
    for (const p of tree) {
      push(index.byName, posix.basename(p), p);
      if (p.endsWith('.go')) push(index.goByDir, posix.dirname(p), p);
    }
    treeIndexes.set(tree, index);
  }
  return index;
}

/**
 * Every path of `tree` that `path` (with content `text`) imports, sorted, without itself: the
 * same matching as findImport with the whole tree as candidates (through an index of the tree,
 * so a large tree is walked once, not once per file).
 */
export function importedPaths(path: string, text: string, tree: ReadonlySet<string>): string[] {
  const t = importTargets(path, text);
  const found = new Set<string>();
  for (const p of t.exact.keys()) if (tree.has(p)) found.add(p);
  if (t.suffix.size > 0 || t.goPackages.length > 0) {
    const index = indexOf(tree);
    for (const s of t.suffix.keys()) {
      for (const c of index.byName.get(posix.basename(s)) ?? []) if (c === s || c.endsWith(`/${s}`)) found.add(c);
    }
    for (const [d, files] of index.goByDir) {
      if (d !== '.' && t.goPackages.some((g) => g === d || g.endsWith(`/${d}`))) for (const c of files) found.add(c);
    }
  }
  found.delete(path);
  return [...found].sort();
}

/** The first file of `candidates` that `path` (with content `text`) imports, or null. */
export function findImport(path: string, text: string, candidates: readonly string[]): ImportLink | null {
  const t = importTargets(path, text);
  for (const c of [...candidates].sort()) {
    if (c === path) continue;
    const spec = names(t, c);
    if (spec !== undefined) return { from: path, to: c, spec };
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
