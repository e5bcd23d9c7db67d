import { describe, expect, it } from 'vitest';
import { findImport, importedPaths } from '../../../src/util/source-imports.js';

describe('importedPaths', () => {
  const tree = new Set([
    'src/app/main.ts', 'src/lib/strings.ts', 'src/lib/index.ts', 'pkg/util/text.py', 'pkg/app/run.py',
    'include/common/defs.h', 'vendor/common/defs.h', 'src/x.c', 'web/App.vue', 'web/store.js', 'go/util/fmt.go', 'go/util/pad.go', 'go/cmd/main.go',
  ]);

  it('resolves relative JS/TS imports (also .js written for .ts) and directory indexes', () => {
    const text = "import { a } from '../lib/strings.js';\nimport b from '../lib';\nimport x from 'react';\nconst c = require('./nope');";
    expect(importedPaths('src/app/main.ts', text, tree)).toEqual(['src/lib/index.ts', 'src/lib/strings.ts']);
  });

  it('resolves Python absolute and relative imports', () => {
    expect(importedPaths('pkg/app/run.py', 'from pkg.util.text import slug\nfrom ..util import text\nimport os\n', tree)).toEqual(['pkg/util/text.py']);
    expect(importedPaths('pkg/app/run.py', 'from ..util import text\n', new Set([...tree, 'pkg/util/__init__.py']))).toEqual(['pkg/util/__init__.py']);
  });

  it('gives every file a C include may name, and Go packages by directory', () => {
    expect(importedPaths('src/x.c', '#include "common/defs.h"\n#include <stdio.h>\n', tree)).toEqual(['include/common/defs.h', 'vendor/common/defs.h']);
    expect(importedPaths('go/cmd/main.go', 'import (\n  "fmt"\n  "example.com/m/go/util"\n)\n', tree)).toEqual(['go/util/fmt.go', 'go/util/pad.go']);
  });

  it('reads Vue and Svelte components as JavaScript, and never names the file itself', () => {
    expect(importedPaths('web/App.vue', "<script>\nimport store from './store';\nimport self from './App.vue';\n</script>", tree)).toEqual(['web/store.js']);
  });

  it('agrees with findImport on every candidate of the tree', () => {
    const text = "import { a } from '../lib/strings.js';\nimport b from '../lib';\n";
    const all = importedPaths('src/app/main.ts', text, tree);
    expect([...tree].filter((c) => findImport('src/app/main.ts', text, [c]) !== null).sort()).toEqual(all);
  });
});
