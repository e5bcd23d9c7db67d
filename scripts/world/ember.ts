/** emberdb/ember: a small C key-value store built with make. */
import { RepoScript, AUTHORS } from './script.js';
import type { WorldExpectation, WorldProbe } from './types.js';

const [maya, tomas, priya, jonas, aiko, sam] = AUTHORS as [any, any, any, any, any, any];
export const EMBER = 'emberdb/ember';

const kvGood = `#include <string.h>
#include "kv.h"

static const struct entry table[] = {
    {"apple", "red"},
    {"app", "store"},
    {"banana", "yellow"},
};

const char *kv_get(const char *key) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].key, key) == 0) return table[i].value;
    }
    return NULL;
}
`;
const kvBad = kvGood.replace('if (strcmp(table[i].key, key) == 0) return table[i].value;', 'if (strncmp(table[i].key, key, strlen(key)) == 0) return table[i].value; /* avoid full compare */');

const main = `#include <stdio.h>
#include <string.h>
#include "kv.h"

int main(int argc, char **argv) {
    if (argc != 3 || strcmp(argv[1], "get") != 0) {
        fprintf(stderr, "usage: ember get KEY\\n");
        return 2;
    }
    const char *v = kv_get(argv[2]);
    printf("value=%s\\n", v ? v : "(none)");
    return v ? 0 : 1;
}
`;
const makefile = (flags: string) => `CC ?= cc
CFLAGS ?= ${flags}

ember: src/main.c src/kv.c src/kv.h
\t$(CC) $(CFLAGS) -Isrc -o ember src/main.c src/kv.c

test: ember
\tsh tests/run.sh

.PHONY: test
`;

const workflows = {
  build: `name: build
on:
  push:
    branches: [main]
  pull_request:
    paths:
      - 'src/**'
      - Makefile
      - 'tests/**'
jobs:
  make:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make test
`,
  fuzz: `name: fuzz
on:
  pull_request:
    branches: [ main ]
    paths: [ 'src/**/*.c', 'src/**/*.h' ]
jobs:
  fuzz:
    runs-on: ubuntu-latest
    steps:
      - run: echo fuzz
`,
  docs: `name: docs
on:
  pull_request:
    paths-ignore: ['src/**', 'tests/**', Makefile]
jobs:
  site:
    runs-on: ubuntu-latest
    steps:
      - run: echo docs
`,
  codeql: `name: codeql
on:
  schedule:
    - cron: '17 4 * * 1'
  pull_request:
    branches: ['main']
    types: [opened, reopened]
jobs:
  analyze:
    runs-on: ubuntu-latest
    steps:
      - run: echo analyze
`,
  broken: `name: broken
on:
  pull_request:
    paths: ['src/**']
    paths-ignore: ['docs/**']
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`,
};

export function writeEmber(): { script: RepoScript; probes: WorldProbe[]; expectations: WorldExpectation[]; after: (s: RepoScript) => void } {
  const s = new RepoScript(EMBER, 3, '2024-03-05T08:00:00Z', (i) => ({
    [i % 5 === 0 ? 'NEWS' : `docs/design/section-${i % 9}.md`]: `Design notes, revision ${i}.\n`,
  }));
  const probes: WorldProbe[] = [];
  const exp: WorldExpectation[] = [];
  s.commit('Initial commit: in-memory table and CLI', {
    'Makefile': makefile('-O2 -Wall'),
    'README.md': '# ember\n\nA tiny key-value store.\n',
    'src/kv.h': 'struct entry { const char *key; const char *value; };\nconst char *kv_get(const char *key);\n',
    'src/kv.c': kvGood,
    'src/main.c': main,
    'tests/run.sh': '#!/bin/sh\nset -e\n./ember get apple | grep -q "value=red"\n./ember get app | grep -q "value=store"\necho ok\n',
    'docs/index.md': '# ember docs\n',
    '.github/workflows/build.yml': workflows.build,
    '.github/workflows/fuzz.yml': workflows.fuzz,
    '.github/workflows/docs.yml': workflows.docs,
    '.github/workflows/codeql.yml': workflows.codeql,
    '.github/workflows/broken.yml': workflows.broken,
  }, sam);
  s.noise(60);
  s.h.tag('v1.0', s.h.tip('main'), s.time);
  // A feature branch merged with a merge commit.
  const fork = s.h.tip('main');
  s.h.branch('iter', 'main');
  s.commit('Add iteration API header', { 'src/iter.h': 'void kv_each(void (*fn)(const char *, const char *));\n' }, aiko, 'iter');
  s.commit('Document iteration', { 'docs/iter.md': '# Iteration\n\n`kv_each` visits every entry.\n' }, aiko, 'iter');
  s.noise(2);
  s.h.merge('main', 'iter', { message: "Merge branch 'iter'", author: sam, time: s.tick(), forkMark: fork });
  s.h.deleteBranch('iter');
  s.noise(15);
  const culprit = s.commit('kv_get: avoid a full string compare', { 'src/kv.c': kvBad }, tomas);
  s.noise(35);
  s.h.tag('v1.1', s.h.tip('main'), s.time);
  // Side branch with a commit that never reaches main.
  s.h.branch('experimental-index', 'main');
  const sideCommit = s.commit('Hash index for lookups', { 'src/index.c': '/* hash index */\n' }, priya, 'experimental-index');
  s.noise(4);
  const reportAt = s.tick(1);
  s.noise(10);
  const pr31 = s.openPr({ number: 31, title: 'Build with -Wextra', body: 'Closes #310', author: jonas, branch: 'wextra',
    commits: [{ message: 'Build with -Wextra', files: { Makefile: makefile('-O2 -Wall -Wextra') } }], closes: [310] });
  const issue310At = pr31.createdAt - 6 * 3600;
  s.noise(2);
  s.mergePr(pr31, 'merge');
  s.noise(40);
  const skipA = s.h.tip('main');
  s.noise(1);
  const skipB = s.h.tip('main');
  s.noise(20);

  const after = (w: RepoScript): void => {
    const sha = (m: number) => w.h.sha(m);
    w.issue({ number: 301, title: '`ember get app` returns the value of `apple`', author: 'hana', at: reportAt,
      body: `Looking up a key that is a prefix of another key returns the wrong value.

\`\`\`
$ make && ./ember get app
value=red
\`\`\`

Expected \`value=store\`. v1.0 is fine, v1.1 is broken.

gcc 12.2, Debian 12, x86_64.`,
      comments: [
        { author: sam, afterHours: 4, body: `Reproduced. The first bad commit is ${sha(culprit)}: the prefix compare matches "apple" for "app".` },
      ] });
    probes.push({ repo: EMBER, number: 301, spec: {
      setup: ['make -s ember'],
      trigger: './ember get app',
      symptom: { stdout_contains: 'value=red' },
      exercised: { marker: 'value=' },
      timeout_s: 30, repeats: 3,
    } });
    exp.push({ repo: EMBER, kind: 'backward', ref: '#301', expect: 'admitted, probe verified' });

    w.issue({ number: 302, title: 'Lookups slower since the index work', author: 'ravi', at: reportAt + 3600,
      body: 'Lookups of missing keys take 3x longer than on v1.0 (`./ember get zzz` in a loop, 1M iterations: 0.9 s vs 2.8 s).',
      comments: [{ author: 'ravi', afterHours: 2, body: `git bisect says the first bad commit is ${sha(sideCommit).slice(0, 12)}.` }] });
    exp.push({ repo: EMBER, kind: 'backward', ref: '#302', expect: 'rejected: on-default-branch check fails' });

    w.issue({ number: 303, title: 'Crash when the table is empty', author: 'ivy', at: reportAt + 2 * 3600,
      body: 'Building with an empty table crashes in `kv_get` with a segfault (`Segmentation fault (core dumped)`).',
      comments: [{ author: 'ivy', afterHours: 3, body: `Bisect could not finish:\n\n\`\`\`\nThere are only 'skip'ped commits left to test.\nThe first bad commit could be any of:\n${sha(skipA)}\n${sha(skipB)}\nWe cannot bisect more!\n\`\`\`` }] });
    exp.push({ repo: EMBER, kind: 'backward', ref: '#303', expect: 'rejected: bisect-skipped' });

    w.issue({ number: 310, title: 'Enable -Wextra in the build', author: jonas, at: issue310At,
      body: 'We keep missing unused-parameter warnings; the Makefile should build with `-Wextra`.', closedAfterHours: 12 });
    exp.push({ repo: EMBER, kind: 'forward', ref: '#310/#31', expect: 'admitted: build (broken.yml reported invalid)' });
  };
  void maya;
  return { script: s, probes, expectations: exp, after };
}
