import { describe, expect, it } from 'vitest';
import { findImport, findImportLinks } from '../../../src/util/source-imports.js';
import { classifyTier } from '../../../src/pairs/tier.js';

describe('findImport', () => {
  it.each([
    ['src/a.ts', `import { x } from './b.js';`, ['src/b.ts'], 'src/b.ts'],
    ['src/a.ts', `import {\n  x,\n  y,\n} from "../lib/util";`, ['lib/util.ts'], 'lib/util.ts'],
    ['src/a.js', `const m = require('./dir');`, ['src/dir/index.js'], 'src/dir/index.js'],
    ['src/a.js', `export * from './c.mjs';`, ['src/c.mjs'], 'src/c.mjs'],
    ['src/a.js', `const m = await import('./lazy');`, ['src/lazy.jsx'], 'src/lazy.jsx'],
    ['pkg/sub/a.py', `from .b import thing`, ['pkg/sub/b.py'], 'pkg/sub/b.py'],
    ['pkg/sub/a.py', `from ..core import thing`, ['pkg/core/__init__.py'], 'pkg/core/__init__.py'],
    ['pkg/sub/a.py', `from . import utils, other`, ['pkg/sub/other.py'], 'pkg/sub/other.py'],
    ['app/main.py', `import mypkg.util as u`, ['src/mypkg/util.py'], 'src/mypkg/util.py'],
    ['cmd/main.go', `import (\n  "fmt"\n  "example.com/m/internal/store"\n)`, ['internal/store/db.go'], 'internal/store/db.go'],
    ['src/a.c', `#include "util.h"\n#include <stdio.h>`, ['src/util.h'], 'src/util.h'],
    ['src/a.c', `#include "include/api.h"`, ['include/api.h'], 'include/api.h'],
  ])('%s imports %j', (path, text, candidates, expected) => {
    expect(findImport(path, text, candidates)?.to).toBe(expected);
  });

  it.each([
    ['src/a.ts', `import x from 'lodash';`, ['src/lodash.ts']],
    ['src/a.ts', `// import './b' in a comment is still text, but not a match here`, ['src/c.ts']],
    ['src/a.js', `const s = "require('./b')"; `, ['src/z.js']],
    ['src/a.c', `#include <util.h>`, ['src/util.h']],
    ['README.md', `import './b'`, ['b.js']],
  ])('%s does not import %j', (path, text, candidates) => {
    expect(findImport(path, text, candidates)).toBeNull();
  });

  it('lists links sorted', () => {
    const links = findImportLinks(
      [
        { path: 'z.js', text: `require('./a')` },
        { path: 'b.js', text: `require('./a')` },
      ],
      ['a.js'],
    );
    expect(links.map((l) => l.from)).toEqual(['b.js', 'z.js']);
  });
});

describe('classifyTier', () => {
  it('is coupled when code files overlap', () => {
    expect(classifyTier(['src/a.js', 'src/b.js'], ['src/b.js'], [])).toEqual({ tier: 'coupled', basis: 'file-overlap', evidence: ['src/b.js'] });
  });
  it('is coupled through an import link', () => {
    const d = classifyTier(['src/a.js'], ['src/b.js'], [{ from: 'src/a.js', to: 'src/b.js', spec: './b' }]);
    expect(d).toEqual({ tier: 'coupled', basis: 'import', evidence: ['src/a.js -> src/b.js (./b)'] });
  });
  it('is coupled for two files of one Go package', () => {
    expect(classifyTier(['pkg/a.go'], ['pkg/b.go'], [])).toMatchObject({ tier: 'coupled', basis: 'go-package' });
  });
  it('is control when files and directories are disjoint', () => {
    expect(classifyTier(['a/x.js'], ['b/y.js'], [])).toEqual({ tier: 'control', basis: 'disjoint', evidence: [] });
  });
  it('is unrelated for the same directory without a link', () => {
    expect(classifyTier(['a/x.js', 'c/z.js'], ['a/y.js'], [])).toEqual({ tier: 'unrelated', basis: 'shared-directory', evidence: ['a'] });
  });
});
