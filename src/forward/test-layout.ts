/**
 * The repository's test layout, inferred from the tracked paths at base: where a test for a
 * source file would live. Pure.
 */

export type TestStyle = 'dot-test' | 'dot-spec' | 'underscore-test' | 'test-prefix' | 'Test-suffix';
export type TestPlace = 'same-dir' | 'tests-subdir' | 'mirror';

export interface TestLayout {
  readonly style: TestStyle;
  readonly place: TestPlace;
  /** For `mirror`: the root the tree is mirrored under (e.g. `test`, `tests`); for `tests-subdir` the subdir name. */
  readonly root: string;
}

const TEST_DIRS = new Set(['test', 'tests', 'spec', 'specs', '__tests__', 'testing']);
const SOURCE_ROOTS = new Set(['src', 'lib', 'pkg', 'app', 'source']);
const NON_SOURCE = /\.(md|rst|txt|json|ya?ml|toml|lock|cfg|ini|svg|png|jpe?g|gif|html?|css|scss)$/i;

function splitName(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? { stem: name, ext: '' } : { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/** The style of a test file name, or null when the name is not a test's. */
export function testStyleOf(name: string): TestStyle | null {
  const { stem } = splitName(name);
  if (/\.test$/.test(stem)) return 'dot-test';
  if (/\.spec$/.test(stem)) return 'dot-spec';
  if (/_test$/.test(stem)) return 'underscore-test';
  if (/^test_/.test(stem)) return 'test-prefix';
  if (/[a-z0-9]Tests?$/.test(stem)) return 'Test-suffix';
  return null;
}

/** Whether a path is a test file (by name or by living in a test directory). */
export function isTestPath(path: string): boolean {
  const segs = path.split('/');
  return testStyleOf(segs[segs.length - 1]!) !== null || segs.slice(0, -1).some((s) => TEST_DIRS.has(s));
}

/** A source file a test could be written for: not a test, not docs/config/data, not under .github. */
export function isSourcePath(path: string): boolean {
  if (path.startsWith('.github/') || isTestPath(path) || NON_SOURCE.test(path)) return false;
  return splitName(path.split('/').pop()!).ext !== '';
}

/**
 * The most common layout of the repository's test files with the given extension (ties broken
 * by a fixed order), or null when the repository has no such tests.
 */
export function inferTestLayout(tree: readonly string[], ext: string): TestLayout | null {
  const counts = new Map<string, { layout: TestLayout; n: number }>();
  for (const path of tree) {
    const segs = path.split('/');
    const name = segs[segs.length - 1]!;
    if (splitName(name).ext !== ext) continue;
    const style = testStyleOf(name);
    const dirs = segs.slice(0, -1);
    const testDirAt = dirs.findIndex((s) => TEST_DIRS.has(s));
    if (style === null && testDirAt === -1) continue;
    let layout: TestLayout;
    if (testDirAt === -1) layout = { style: style!, place: 'same-dir', root: '' };
    else if (testDirAt === 0) layout = { style: style ?? 'test-prefix', place: 'mirror', root: dirs[0]! };
    else layout = { style: style ?? 'test-prefix', place: 'tests-subdir', root: dirs[testDirAt]! };
    const key = `${layout.style}|${layout.place}|${layout.root}`;
    const c = counts.get(key) ?? { layout, n: 0 };
    c.n += 1;
    counts.set(key, c);
  }
  const best = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))[0];
  return best ? best[1].layout : null;
}

/** Default layout by language when the repository has no tests of that kind. */
function defaultLayout(ext: string): TestLayout {
  if (ext === '.py') return { style: 'test-prefix', place: 'mirror', root: 'tests' };
  if (ext === '.go') return { style: 'underscore-test', place: 'same-dir', root: '' };
  if (ext === '.java' || ext === '.kt' || ext === '.cs') return { style: 'Test-suffix', place: 'same-dir', root: '' };
  if (ext === '.rb') return { style: 'underscore-test', place: 'mirror', root: 'test' };
  return { style: 'dot-test', place: 'same-dir', root: '' };
}

function testName(stem: string, ext: string, style: TestStyle): string {
  switch (style) {
    case 'dot-test':
      return `${stem}.test${ext}`;
    case 'dot-spec':
      return `${stem}.spec${ext}`;
    case 'underscore-test':
      return `${stem}_test${ext}`;
    case 'test-prefix':
      return `test_${stem}${ext}`;
    case 'Test-suffix':
      return `${stem}Test${ext}`;
  }
}

/** Where the test of `source` would be, following the repository's layout for its extension. */
export function testPathFor(source: string, tree: readonly string[]): string {
  const segs = source.split('/');
  const { stem, ext } = splitName(segs.pop()!);
  const layout = inferTestLayout(tree, ext) ?? defaultLayout(ext);
  const name = testName(stem, ext, layout.style);
  if (layout.place === 'same-dir') return [...segs, name].join('/');
  if (layout.place === 'tests-subdir') return [...segs, layout.root, name].join('/');
  const rest = segs.length > 0 && SOURCE_ROOTS.has(segs[0]!) ? segs.slice(1) : segs;
  return [layout.root, ...rest, name].join('/');
}
