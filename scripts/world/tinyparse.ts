/** tinyparse/tinyparse: a small Python parsing library with a bisectable regression. */
import { RepoScript, AUTHORS } from './script.js';
import type { WorldExpectation, WorldProbe } from './types.js';

const [maya, tomas, priya, jonas, aiko] = AUTHORS as [any, any, any, any, any];
export const TINYPARSE = 'tinyparse/tinyparse';

const fieldsGood = `"""Splitting delimited records into fields."""


def split_fields(line, sep=","):
    """Split one record; a trailing separator yields a trailing empty field."""
    return line.split(sep)
`;
const fieldsBad = `"""Splitting delimited records into fields."""


def split_fields(line, sep=","):
    """Split one record (fast path: no regex, strips the line end)."""
    return line.rstrip(sep).split(sep)
`;
const cli = `"""Command line: python3 -m tinyparse.cli RECORD"""
import sys

from tinyparse.fields import split_fields


def main(argv):
    fields = split_fields(argv[1] if len(argv) > 1 else "")
    print("fields=%d" % len(fields))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
`;

const workflows = {
  tests: `name: tests
on:
  pull_request:
    paths:
      - 'tinyparse/**'
      - 'tests/**'
      - pyproject.toml
jobs:
  pytest:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python: ['3.10', '3.11', '3.12']
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: \${{ matrix.python }}
      - run: pip install -e . && pytest
`,
  docs: `name: docs
on:
  pull_request:
    paths: ['docs/**', 'mkdocs.yml']
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install mkdocs && mkdocs build --strict
`,
  /** The docs workflow before it was narrowed: it also built the API reference on code changes (a Forward paired state). */
  docsWithApi: `name: docs
on:
  pull_request:
    paths: ['docs/**', 'mkdocs.yml', 'tinyparse/**']
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install mkdocs && mkdocs build --strict
`,
  lint: `name: lint
"on":
  pull_request:
    branches: [main]
jobs:
  ruff:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pipx run ruff check .
`,
  publish: `name: publish
on:
  release:
    types: [published]
jobs:
  pypi:
    runs-on: ubuntu-latest
    steps:
      - run: echo upload
`,
};

export function writeTinyparse(): { script: RepoScript; probes: WorldProbe[]; expectations: WorldExpectation[]; after: (s: RepoScript) => void } {
  const s = new RepoScript(TINYPARSE, 1, '2024-01-10T10:00:00Z', (i) => ({
    [i % 4 === 0 ? 'CHANGELOG.md' : `docs/guide/page-${i % 11}.md`]: `# Guide page\n\nEdition ${i}.\n`,
  }));
  const probes: WorldProbe[] = [];
  const exp: WorldExpectation[] = [];
  s.commit('Initial import', {
    'pyproject.toml': '[project]\nname = "tinyparse"\nversion = "0.3.0"\nrequires-python = ">=3.9"\n',
    'README.md': '# tinyparse\n\nTiny, dependency-free record parsing.\n',
    'tinyparse/__init__.py': '__version__ = "0.3.0"\n',
    'tinyparse/fields.py': fieldsGood,
    'tinyparse/cli.py': cli,
    'tests/test_fields.py': 'from tinyparse.fields import split_fields\n\n\ndef test_basic():\n    assert split_fields("a,b") == ["a", "b"]\n',
    'docs/index.md': '# tinyparse\n',
    'mkdocs.yml': 'site_name: tinyparse\n',
    '.github/workflows/tests.yml': workflows.tests,
    '.github/workflows/docs.yml': workflows.docsWithApi,
    '.github/workflows/lint.yml': workflows.lint,
    '.github/workflows/publish.yml': workflows.publish,
    '.github/workflows/helpers/matrix.yml': 'name: not a workflow (subdirectory)\non: pull_request\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps: [{ run: "true" }]\n',
  }, maya);
  s.noise(50);
  const goodTag = s.h.tip('main');
  s.h.tag('v0.3.0', goodTag, s.time);
  s.commit('CI: build the docs only when the docs change', { '.github/workflows/docs.yml': workflows.docs }, maya);
  s.noise(12);
  const hedgeTarget = s.commit('Tokenizer: handle quoted separators', { 'tinyparse/quote.py': 'def unquote(s):\n    return s.strip(\'"\')\n' }, tomas);
  s.noise(9);
  const culprit = s.commit('Speed up split_fields by avoiding regex', { 'tinyparse/fields.py': fieldsBad }, jonas);
  s.noise(30);
  s.h.tag('v0.4.0', s.h.tip('main'), s.time);
  s.noise(6);
  const reportAt = s.tick(1);
  s.noise(25);
  // A side branch that never lands.
  s.h.branch('exp-speedups', 'main');
  s.commit('Experiment: vectorised split', { 'tinyparse/fast.py': 'def split(line):\n    return line.split(",")\n' }, aiko, 'exp-speedups');
  s.noise(5);
  const pr11 = s.openPr({ number: 11, title: 'Keep trailing empty fields in split_fields', body: 'Fixes #110.\n\nRestores the old behaviour and adds a test.', author: priya, branch: 'fix-trailing',
    commits: [
      { message: 'Keep trailing empty fields', files: { 'tinyparse/fields.py': fieldsGood } },
      { message: 'Test trailing separators', files: { 'tests/test_trailing.py': 'from tinyparse.fields import split_fields\n\n\ndef test_trailing():\n    assert split_fields("a,b,") == ["a", "b", ""]\n' } },
    ], closes: [110] });
  const issue110At = pr11.createdAt - 10 * 3600;
  s.noise(2);
  s.mergePr(pr11, 'squash');
  s.noise(40);
  s.h.tag('v0.4.1', s.h.tip('main'), s.time);
  // A documentation branch merged with a merge commit.
  const fork = s.h.tip('main');
  s.h.branch('docs-usage', 'main');
  s.commit('Docs: usage page', { 'docs/usage.md': '# Usage\n\n`split_fields(line)` splits one record.\n' }, maya, 'docs-usage');
  s.commit('Docs: link the usage page', { 'mkdocs.yml': 'site_name: tinyparse\nnav:\n  - index.md\n  - usage.md\n' }, maya, 'docs-usage');
  s.noise(2);
  s.h.merge('main', 'docs-usage', { message: "Merge branch 'docs-usage'", author: tomas, time: s.tick(), forkMark: fork });
  s.h.deleteBranch('docs-usage');
  s.noise(3);

  const after = (w: RepoScript): void => {
    const sha = (m: number) => w.h.sha(m);
    const g = sha(culprit);
    const bisectLog = `$ git bisect start
$ git bisect bad v0.4.0
$ git bisect good v0.3.0
Bisecting: 25 revisions left to test after this (roughly 5 steps)
$ git bisect good
Bisecting: 12 revisions left to test after this (roughly 4 steps)
$ git bisect bad
Bisecting: 6 revisions left to test after this (roughly 3 steps)
$ git bisect good
$ git bisect bad
$ git bisect good
${g} is the first bad commit
commit ${g}
Author: Jonas Becker <jonas@example.org>
Date:   ${new Date(Date.parse('2024-01-01')).toUTCString()}

    Speed up split_fields by avoiding regex

 tinyparse/fields.py | 4 ++--
 1 file changed, 2 insertions(+), 2 deletions(-)`;
    w.issue({ number: 101, title: 'split_fields drops the trailing empty field in 0.4.0', author: 'olga-k', at: reportAt,
      body: `After upgrading from 0.3.0 to 0.4.0, records that end with the separator lose their last (empty) field.

\`\`\`
$ python3 -m tinyparse.cli 'a,b,'
fields=2
\`\`\`

With 0.3.0 the same command prints \`fields=3\`, which is what the CSV spec says: \`a,b,\` has three fields, the last one empty. Our importer now shifts columns for every row with an empty last column.

Python 3.11.4 on macOS 14, tinyparse 0.4.0 from PyPI.`,
      comments: [
        { author: jonas, afterHours: 6, body: `I ran a bisect between the two tags:\n\n\`\`\`\n${bisectLog}\n\`\`\`\n\nSo it is my fast path. Sorry about that.` },
      ] });
    probes.push({ repo: TINYPARSE, number: 101, spec: {
      setup: ['python3 -c "import sys; sys.exit(0)"'],
      trigger: "python3 -m tinyparse.cli 'a,b,'",
      symptom: { stdout_contains: 'fields=2' },
      exercised: { marker: 'fields=' },
      timeout_s: 20, repeats: 3,
    } });
    exp.push({ repo: TINYPARSE, kind: 'backward', ref: '#101', expect: 'admitted, probe verified' });

    w.issue({ number: 102, title: 'Quoted fields with commas are split', author: 'bert', at: reportAt + 3600,
      body: 'Parsing `"a,b",c` gives three fields instead of two since 0.4.0.\n\nRepro: `split_fields(\'"a,b",c\')` returns `[\'"a\', \'b"\', \'c\']`.',
      comments: [{ author: 'bert', afterHours: 2, body: `I haven't bisected yet, but I suspect ${sha(hedgeTarget).slice(0, 8)} might be the cause, it touched quoting.` }] });
    exp.push({ repo: TINYPARSE, kind: 'backward', ref: '#102', expect: 'rejected: hedged' });

    w.issue({ number: 103, title: 'Empty trailing column lost', author: 'chen', at: reportAt + 2 * 3600,
      body: 'Rows like `x,y,` come back with two fields. It works in v0.3.0 and is broken in v0.4.0, so it is somewhere in v0.3.0..v0.4.0; I did not have time to bisect further.' });
    exp.push({ repo: TINYPARSE, kind: 'backward', ref: '#103', expect: 'rejected: range-only' });

    w.issue({ number: 104, title: 'CLI prints wrong field count for trailing separators', author: 'dana', at: reportAt + 3 * 3600,
      body: '`python3 -m tinyparse.cli "1,2,"` prints `fields=2`; expected `fields=3`.',
      comments: [
        { author: 'dana', afterHours: 1, body: `Bisected it to ${sha(hedgeTarget).slice(0, 10)}.` },
        { author: 'dana', afterHours: 5, body: 'Sorry, my bisect was wrong: I had a stale build installed. Please ignore that commit; I will redo it.' },
      ] });
    exp.push({ repo: TINYPARSE, kind: 'backward', ref: '#104', expect: 'rejected: retracted' });

    w.issue({ number: 105, title: 'bisect result', author: 'evan', at: reportAt + 4 * 3600,
      body: `\`\`\`\n${g} is the first bad commit\n\`\`\`` });
    exp.push({ repo: TINYPARSE, kind: 'backward', ref: '#105', expect: 'rejected: insufficient-symptom' });

    w.issue({ number: 110, title: 'Keep trailing empty fields', author: 'olga-k', at: issue110At,
      body: 'Follow-up of the 0.4.0 regression: `split_fields("a,b,")` must return three fields again, and there should be a test for it.', closedAfterHours: 20 });
    exp.push({ repo: TINYPARSE, kind: 'forward', ref: '#110/#11', expect: 'admitted: tests + lint' });
  };
  return { script: s, probes, expectations: exp, after };
}
