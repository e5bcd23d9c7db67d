import { describe, expect, it } from 'vitest';
import { sources, importsOf } from './sources.js';

/**
 * The layers of docs/ARCHITECTURE.md, bottom first, by top-level directory or file of src/. A
 * module imports from its own layer or the layers below, never from above.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['util', 'errors.ts', 'log.ts', 'config.ts', 'config-edit.ts', 'version.ts', 'services.ts'],
  ['model'],
  ['store'],
  ['git', 'github'],
  ['routing', 'sanitize', 'backward', 'forward', 'pairs', 'probe', 'export', 'baselines', 'labels', 'mergeability', 'review'],
  ['run', 'stages'],
  ['commands', 'app.ts'],
  ['cli.ts'],
];

/**
 * Imports against the direction that main has today (`from → to`, relative to src/). Do not add
 * to this list: move the shared piece down instead.
 */
const KNOWN_UPWARD: ReadonlySet<string> = new Set([
  // The git readers of cutoff facts call the pure cutoff rule, which lives with the Backward decisions.
  'git/branch-history.ts → backward/cutoff.ts',
  'git/history.ts → backward/cutoff.ts',
  // The check facts' shapes and isFullSha are those of the pure structural checks.
  'git/checks.ts → backward/validate.ts',
  // A reference's repository is compared with the Backward reference rules.
  'git/resolve-ref.ts → backward/refs.ts',
]);

function layerOf(file: string): number {
  const top = file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
  const at = LAYERS.findIndex((l) => l.includes(top));
  if (at < 0) throw new Error(`src/${file}: in no layer of test/unit/architecture/direction.test.ts (add its directory to LAYERS)`);
  return at;
}

/** `from → to` for each import of a module from a layer above its own. */
export function upwardImports(files: Map<string, string>, known: ReadonlySet<string> = KNOWN_UPWARD): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const own = layerOf(file);
    for (const dep of importsOf(file, text)) {
      const edge = `${file} → ${dep}`;
      if (layerOf(dep) > own && !known.has(edge)) out.push(edge);
    }
  }
  return out.sort();
}

describe('the one import direction', () => {
  it('no module under src/ imports from a layer above its own (but the known exceptions)', () => {
    expect(upwardImports(sources())).toEqual([]);
  });

  it('every known exception still exists', () => {
    expect(upwardImports(sources(), new Set()).filter((e) => KNOWN_UPWARD.has(e))).toEqual([...KNOWN_UPWARD].sort());
  });

  it('finds a planted upward import, allows sideways and downward ones, and names a file in no layer', () => {
    const planted = new Map([
      ['git/x.ts', "import { stages } from '../stages/index.js';\nimport { GitError } from './errors.js';\n"],
      ['forward/y.ts', "import type { Store } from '../store/db.js';\nimport { route } from '../routing/index.js';\n"],
      ['store/z.ts', "const m = await import('../commands/core.js');\n"],
    ]);
    expect(upwardImports(planted)).toEqual(['git/x.ts → stages/index.ts', 'store/z.ts → commands/core.ts']);
    expect(() => upwardImports(new Map([['newdir/a.ts', '']]))).toThrow(/src\/newdir\/a\.ts: in no layer/);
  });
});
