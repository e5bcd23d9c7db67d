import { describe, expect, it } from 'vitest';
import { sources, importsOf } from './sources.js';

/**
 * The layers at the bottom: what a module under each may import. Everything else under src/ is
 * the domain (and above it), which these layers never import.
 */
const BOTTOM: { readonly layer: string; readonly may: readonly string[] }[] = [
  { layer: 'model/', may: ['model/', 'util/', 'errors.ts'] },
  { layer: 'store/', may: ['store/', 'model/', 'util/', 'errors.ts'] },
];

/** `file → imported` edges that break the layering (an import from a layer above). */
export function layerViolations(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const rule = BOTTOM.find((b) => file.startsWith(b.layer));
    if (!rule) continue;
    for (const dep of importsOf(file, text)) {
      if (!rule.may.some((m) => (m.endsWith('/') ? dep.startsWith(m) : dep === m))) out.push(`${file} → ${dep}`);
    }
  }
  return out;
}

/** SQL statements: better-sqlite3's prepare/exec/pragma on a string, or the driver imported. */
const SQL_PATTERNS = [
  /\.prepare\(\s*[`'"]/,
  /\bdb\.prepare\(/,
  /\.exec\(\s*[`'"]\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|BEGIN|PRAGMA)\b/i,
  /\.pragma\(\s*[`'"]/,
  /from\s+'better-sqlite3'/,
];

/** `file:line` of each line outside src/store/ that speaks SQL. */
export function sqlOutsideStore(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    if (file.startsWith('store/')) continue;
    for (const [i, line] of text.split('\n').entries()) {
      if (SQL_PATTERNS.some((p) => p.test(line))) out.push(`${file}:${i + 1}: ${line.trim()}`);
    }
  }
  return out;
}

/** The table groups of src/store/tables/ (every exported class). */
function tableGroups(files: Map<string, string>): string[] {
  return [...files]
    .filter(([f]) => f.startsWith('store/tables/'))
    .flatMap(([, text]) => [...text.matchAll(/^export class (\w+)/gm)].map((m) => m[1]!))
    .sort();
}

/** `file:line` of each construction of a table group outside src/store/ (the store makes them, once). */
export function groupsMadeOutsideStore(files: Map<string, string>, groups: readonly string[]): string[] {
  const made = new RegExp(`\\bnew (?:${groups.join('|')})\\(`);
  const out: string[] = [];
  for (const [file, text] of files) {
    if (file.startsWith('store/')) continue;
    for (const [i, line] of text.split('\n').entries()) if (made.test(line)) out.push(`${file}:${i + 1}`);
  }
  return out;
}

describe('the store at the bottom', () => {
  const files = sources();

  it('src/store/ and src/model/ import nothing from the domain above them', () => {
    expect(layerViolations(files)).toEqual([]);
  });

  it('the layer check catches a store module importing a domain module', () => {
    const planted = new Map([
      ['store/tables/x.ts', "import type { Thread } from '../../model/backward.js';\nimport type { Verdict } from '../../probe/classify.js';\n"],
      ['model/y.ts', "import { caseId } from '../util/case-id.js';\nexport type { Report } from '../sanitize/report.js';\n"],
      ['store/z.ts', "const m = await import('../export/records.js');\n"],
      ['backward/w.ts', "import type { Store } from '../store/db.js';\n"],
    ]);
    expect(layerViolations(planted)).toEqual([
      'store/tables/x.ts → probe/classify.ts',
      'model/y.ts → sanitize/report.ts',
      'store/z.ts → export/records.ts',
    ]);
  });

  it('no SQL outside src/store/', () => {
    expect(sqlOutsideStore(files)).toEqual([]);
  });

  it('the SQL check catches a prepared statement outside src/store/', () => {
    const planted = new Map([
      ['commands/x.ts', "const rows = app.store.db.prepare('SELECT name FROM repos').all();\n"],
      ['stages/y.ts', 'store.db.exec(`DELETE FROM threads`);\n'],
      ['pairs/z.ts', 'const dir = await input.prepare(repeat);\nconst m = /a/.exec(text);\n'],
      ['store/tables/ok.ts', "db.prepare('SELECT 1');\n"],
    ]);
    expect(sqlOutsideStore(planted)).toEqual([
      "commands/x.ts:1: const rows = app.store.db.prepare('SELECT name FROM repos').all();",
      'stages/y.ts:1: store.db.exec(`DELETE FROM threads`);',
    ]);
  });

  it('table groups are made by the store only, and their statements need no non-null assertion', () => {
    const groups = tableGroups(files);
    expect(groups).toContain('BackwardTables');
    expect(groups).toContain('Sources');
    expect(groupsMadeOutsideStore(files, groups)).toEqual([]);
    const asserted = [...files].filter(([f, text]) => f.startsWith('store/') && /this\.s(?:\.\w+|\[\w+\])!/.test(text)).map(([f]) => f);
    expect(asserted).toEqual([]);
  });

  it('the construction check catches a table group made outside src/store/', () => {
    const planted = new Map([
      ['stages/x.ts', 'const tables = new BackwardTables(ctx.store.db);\n'],
      ['store/db.ts', 'backward: (db) => new BackwardTables(db),\n'],
      ['stages/y.ts', 'const t = ctx.store.backward;\n'],
    ]);
    expect(groupsMadeOutsideStore(planted, ['BackwardTables', 'Sources'])).toEqual(['stages/x.ts:1']);
  });
});
