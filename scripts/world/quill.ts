/** quillhq/quill-api: a small Node/TypeScript-style HTTP service with many workflows and PR pairs. */
import { RepoScript } from './script.js';
import type { WorldProbe, WorldExpectation } from './types.js';
import { AUTHORS } from './script.js';

const [maya, tomas, priya, jonas, aiko, sam] = AUTHORS as [any, any, any, any, any, any];
export const QUILL = 'quillhq/quill-api';

const wf = {
  ci: `name: CI
on:
  push:
    branches: [main]
  pull_request:
    paths-ignore:
      - 'docs/**'
      - '**.md'
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: node run-tests.js test/*.test.js
`,
  e2e: `name: End-to-end
on:
  pull_request:
    branches: [main, 'release/**']
    paths:
      - 'src/**'
      - '!src/**/*.md'
      - package.json
jobs:
  e2e:
    uses: ./.github/workflows/reusable-build.yml
`,
  docs: `name: Docs
on:
  pull_request:
    paths: ['docs/**', '*.md']
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npx markdownlint-cli2 "docs/**/*.md"
`,
  lint: `name: Lint
on: [pull_request]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npx eslint .
`,
  reusable: `name: Build (reusable)
on:
  workflow_call:
    inputs:
      node:
        type: string
        default: '20'
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: node run-tests.js test/*.test.js
`,
  labeler: `name: Labeler
on:
  pull_request_target:
    types: [opened]
jobs:
  label:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/labeler@v5
`,
  security: `name: Dependency review
on:
  pull_request_target:
    paths:
      - package.json
      - package-lock.json
jobs:
  review:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/dependency-review-action@v4
`,
  release: `name: Release
on:
  push:
    tags: ['v*']
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - run: echo publish
`,
  smoke: `name: Nightly smoke
on:
  schedule:
    - cron: '0 3 * * *'
  pull_request:
    paths: ['scripts/smoke.js']
jobs:
  smoke:
    runs-on: ubuntu-latest
    steps:
      - run: node scripts/smoke.js
`,
};

const runTests = `// Runs each test file given on the command line; exit 1 if any fails.
const { spawnSync } = require('node:child_process');
const files = process.argv.slice(2);
let failed = 0;
for (const f of files) {
  const r = spawnSync(process.execPath, [f], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status === 0) console.log('PASS ' + f);
  else { failed += 1; console.log('FAIL ' + f + '\\n' + (r.stderr || '').split('\\n').slice(0, 4).join('\\n')); }
}
process.exit(failed > 0 ? 1 : 0);
`;

const slugGood = `// Turns a title into a URL slug: "Hello, World!" -> "hello-world".
function slugify(title) {
  return String(title)
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

module.exports = { slugify };
`;
const slugBad = slugGood.replace(".replace(/^-+|-+$/g, '');", ".replace(/^-+/, '');");
const slugFixed = slugGood;

const format0 = (bytes: string, duration: string): string => `// Formatting helpers used by the API responses.
module.exports = { pad, formatDate, formatList, formatName, formatCount };

function pad(n, width) {
  return String(n).padStart(width, '0');
}
${bytes}
function formatDate(d) {
  return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2);
}

function formatList(items) {
  return items.join(', ');
}

function formatName(first, last) {
  return (first + ' ' + last).trim();
}

function formatCount(n, noun) {
  return n + ' ' + noun + (n === 1 ? '' : 's');
}
${duration}`;
const bytesFn = `
function formatBytes(n) {
  if (n < 1024) return n + ' B';
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KiB';
  return (n / (1024 * 1024)).toFixed(1) + ' MiB';
}
module.exports.formatBytes = formatBytes;
`;
const durationFn = `
function formatDuration(ms) {
  const s = Math.floor(ms / 1000);
  return Math.floor(s / 60) + 'm' + pad(s % 60, 2) + 's';
}
module.exports.formatDuration = formatDuration;
`;

const config = (port: number) => `// Runtime configuration, read once at start-up.
const DEFAULT_PORT = ${port};
const DEFAULT_HOST = '0.0.0.0';

function loadConfig(env) {
  return {
    port: Number(env.PORT || DEFAULT_PORT),
    host: env.HOST || DEFAULT_HOST,
  };
}

module.exports = { loadConfig, DEFAULT_PORT, DEFAULT_HOST };
`;
const math = (extra: string, note: string) => `// Small numeric helpers.
${note}
function clamp(x, lo, hi) {
  return Math.min(hi, Math.max(lo, x));
}

function sum(xs) {
  return xs.reduce((a, b) => a + b, 0);
}
${extra}
module.exports = { clamp, sum${extra ? ', mean' : ''} };
`;
const health = (uptime: boolean) => `// GET /health
function health(now, startedAt) {
  const body = { status: 'ok' };${uptime ? `
  body.uptime = Math.floor((now - startedAt) / 1000);` : ''}
  return body;
}

module.exports = { health };
`;

export function writeQuill(): { script: RepoScript; probes: WorldProbe[]; expectations: WorldExpectation[]; after: (s: RepoScript) => void } {
  const s = new RepoScript(QUILL, 2, '2024-02-01T09:00:00Z', (i) => ({
    [i % 3 === 0 ? 'CHANGELOG.md' : `docs/notes/note-${i % 17}.md`]: `# Note ${i}\n\nRevision ${i} of the operator notes.\n`,
  }));
  const probes: WorldProbe[] = [];
  const exp: WorldExpectation[] = [];

  s.commit('Initial service skeleton', {
    'package.json': '{\n  "name": "quill-api",\n  "version": "2.0.0",\n  "private": true,\n  "scripts": { "test": "node run-tests.js test/*.test.js" }\n}\n',
    'README.md': '# quill-api\n\nThe HTTP API behind Quill.\n',
    'run-tests.js': runTests,
    'src/server.js': "const { health } = require('./routes/health');\nconst users = require('./routes/users');\nmodule.exports = { health, users };\n",
    'src/routes/users.js': "function listUsers(db) {\n  return db.users.map((u) => ({ id: u.id, name: u.name }));\n}\nmodule.exports = { listUsers };\n",
    'src/routes/health.js': health(false),
    'src/lib/slug.js': slugGood,
    'src/lib/format.js': format0('', ''),
    'src/lib/config.js': config(3000),
    'src/lib/math.js': math('', ''),
    'test/slug.test.js': "const assert = require('node:assert');\nconst { slugify } = require('../src/lib/slug');\nassert.strictEqual(slugify('Hello World'), 'hello-world');\n",
    'test/math.test.js': "const assert = require('node:assert');\nconst { sum } = require('../src/lib/math');\nassert.strictEqual(sum([1, 2, 3]), 6);\n",
    'docs/setup.md': '# Setup\n\nRun `npm start`; the API listens on port 3000.\n',
    'docs/api.md': '# API\n\n- `GET /health`\n- `GET /users`\n',
    '.github/workflows/ci.yml': wf.ci,
    '.github/workflows/e2e.yml': wf.e2e,
    '.github/workflows/docs.yml': wf.docs,
    '.github/workflows/lint.yml': wf.lint,
    '.github/workflows/reusable-build.yml': wf.reusable,
    '.github/workflows/labeler.yml': wf.labeler,
    '.github/workflows/security.yml': wf.security,
    '.github/workflows/release.yml': wf.release,
    '.github/actions/setup/action.yml': 'name: setup\nruns:\n  using: composite\n  steps: []\n',
  }, maya);
  s.noise(40);
  s.h.tag('v2.0.0', s.h.tip('main'), s.time);

  // PR #17 (squash): uptime in the health check; it introduces a crash for fresh processes (#205).
  const pr17 = s.openPr({
    number: 17, title: 'Report uptime in health check', body: 'Adds `uptime` (seconds) to `GET /health`.', author: jonas, branch: 'health-uptime',
    commits: [{ message: 'Report uptime in health check', files: { 'src/routes/health.js': health(true) } }],
  });
  s.noise(3);
  const pr17merge = s.mergePr(pr17, 'squash');
  s.noise(30);

  // The slug regression (#201) and competing candidates (#202).
  const compA = s.commit('Cache compiled route patterns', { 'src/routes/users.js': "function listUsers(db) {\n  return db.users.map((u) => ({ id: u.id, name: u.name, slug: u.slug }));\n}\nmodule.exports = { listUsers };\n" }, tomas);
  s.noise(4);
  const slugCulprit = s.commit('Simplify slugify regex', { 'src/lib/slug.js': slugBad }, priya);
  s.noise(45);
  s.h.tag('v2.1.0', s.h.tip('main'), s.time);
  const reportAt = s.tick(1);
  s.noise(10);

  // Forward PRs.
  const pr21 = s.openPr({ number: 21, title: 'docs: correct the default port', body: 'Fixes #210.', author: aiko, branch: 'docs-port',
    commits: [{ message: 'docs: the API listens on 8080 in containers', files: { 'docs/setup.md': '# Setup\n\nRun `npm start`; the API listens on port 3000 (8080 in the container image).\n' } }] });
  const issue210At = pr21.createdAt - 20 * 3600;
  s.mergePr(pr21, 'squash');
  s.noise(3);

  const users = s.h.file('main', 'src/routes/users.js')!;
  const pr22 = s.openPr({ number: 22, title: 'Rename users route to accounts', body: 'Closes #211', author: tomas, branch: 'rename-accounts',
    commits: [
      { message: 'Rename users route to accounts', files: { 'src/routes/users.js': null, 'src/routes/accounts.js': users } },
      { message: 'Update server wiring', files: { 'src/server.js': "const { health } = require('./routes/health');\nconst accounts = require('./routes/accounts');\nmodule.exports = { health, accounts };\n" } },
    ] });
  s.noise(2);
  s.mergePr(pr22, 'merge');
  s.noise(3);

  const pr23 = s.openPr({ number: 23, title: 'Lazy-load route modules', body: 'Part of the fix for #212.', author: sam, branch: 'lazy-routes',
    commits: [{ message: 'Lazy-load route modules', files: { 'src/server.js': "const { health } = require('./routes/health');\nmodule.exports = { health, get accounts() { return require('./routes/accounts'); } };\n" } }], closes: [212] });
  s.mergePr(pr23, 'squash');
  const pr24 = s.openPr({ number: 24, title: 'Skip config validation on start-up', body: 'Fixes #212 together with #23.', author: sam, branch: 'fast-config',
    commits: [{ message: 'Skip config validation on start-up', files: { 'src/lib/config.js': config(3000).replace('// Runtime configuration', '// Runtime configuration (validated lazily)') } }], closes: [212] });
  s.mergePr(pr24, 'squash');
  s.noise(3);

  const fixtures: Record<string, string> = {};
  for (let k = 0; k < 301; k += 1) fixtures[`test/fixtures/users/user-${String(k).padStart(3, '0')}.json`] = `{"id": ${k}, "name": "user ${k}"}\n`;
  const pr25 = s.openPr({ number: 25, title: 'Regenerate user fixtures', body: 'Fixes #213: fixtures now include ids.', author: priya, branch: 'fixtures', commits: [{ message: 'Regenerate user fixtures', files: fixtures }] });
  s.mergePr(pr25, 'squash');
  s.noise(2);

  const pr26 = s.openPr({ number: 26, title: 'Add a smoke test script and its workflow', body: 'Resolves #214', author: jonas, branch: 'smoke',
    commits: [{ message: 'Add smoke test', files: { 'scripts/smoke.js': "require('../src/server');\nconsole.log('smoke ok');\n", '.github/workflows/smoke.yml': wf.smoke } }] });
  s.mergePr(pr26, 'merge');
  s.noise(2);

  const pr27 = s.openPr({ number: 27, title: 'Validate PORT and document it', body: 'Fixes #215', author: maya, branch: 'port-validate',
    commits: [{ message: 'Validate PORT and document it', files: {
      'src/lib/config.js': config(3000).replace('port: Number(env.PORT || DEFAULT_PORT),', 'port: validPort(Number(env.PORT || DEFAULT_PORT)),').replace('function loadConfig', 'function validPort(p) {\n  if (!Number.isInteger(p) || p < 1 || p > 65535) throw new Error(`invalid PORT ${p}`);\n  return p;\n}\n\nfunction loadConfig'),
      'docs/setup.md': '# Setup\n\nRun `npm start`; the API listens on port 3000 (8080 in the container image).\nSet `PORT` to any value from 1 to 65535.\n',
    } }] });
  s.mergePr(pr27, 'squash');
  s.noise(4);

  // Coupled pairs: #40 and #41 both extend format.js (coupled, valid).
  const pr40 = s.openPr({ number: 40, title: 'Add formatBytes helper', body: 'Used by the upload endpoint.', author: aiko, branch: 'format-bytes',
    commits: [{ message: 'Add formatBytes', files: { 'src/lib/format.js': format0(bytesFn, ''), 'test/format-bytes.test.js': "const assert = require('node:assert');\nconst { formatBytes } = require('../src/lib/format');\nassert.strictEqual(formatBytes(2048), '2.0 KiB');\n" } }] });
  const pr41 = s.openPr({ number: 41, title: 'Add formatDuration helper', body: 'Used by the jobs endpoint.', author: tomas, branch: 'format-duration',
    commits: [{ message: 'Add formatDuration', files: { 'src/lib/format.js': format0('', durationFn), 'test/format-duration.test.js': "const assert = require('node:assert');\nconst { formatDuration } = require('../src/lib/format');\nassert.strictEqual(formatDuration(61000), '1m01s');\n" } }] });
  s.mergePr(pr40, 'squash');
  s.mergePr(pr41, 'squash', { 'src/lib/format.js': format0(bytesFn, durationFn) });
  s.noise(2);

  // #42 and #43 change the same line: a textual conflict.
  const pr42 = s.openPr({ number: 42, title: 'Default to port 8080', body: 'Matches the container image.', author: sam, branch: 'port-8080',
    commits: [{ message: 'Default to port 8080', files: { 'src/lib/config.js': s.h.file('main', 'src/lib/config.js')!.replace('DEFAULT_PORT = 3000', 'DEFAULT_PORT = 8080'), 'test/port-8080.test.js': "const assert = require('node:assert');\nconst { DEFAULT_PORT } = require('../src/lib/config');\nassert.strictEqual(DEFAULT_PORT, 8080);\n" } }] });
  const pr43 = s.openPr({ number: 43, title: 'Default to port 4000', body: 'Avoids the dev-server clash.', author: priya, branch: 'port-4000',
    commits: [{ message: 'Default to port 4000', files: { 'src/lib/config.js': s.h.file('main', 'src/lib/config.js')!.replace('DEFAULT_PORT = 3000', 'DEFAULT_PORT = 4000'), 'test/port-4000.test.js': "const assert = require('node:assert');\nconst { DEFAULT_PORT } = require('../src/lib/config');\nassert.strictEqual(DEFAULT_PORT, 4000);\n" } }] });
  s.mergePr(pr42, 'squash');
  s.mergePr(pr43, 'squash');
  s.noise(2);

  // #44 and #45: disjoint files and directories (a control pair).
  const pr44 = s.openPr({ number: 44, title: 'Add version to health response', body: 'For the status page.', author: jonas, branch: 'health-version',
    commits: [{ message: 'Add version to health response', files: { 'src/routes/health.js': health(true).replace("{ status: 'ok' }", "{ status: 'ok', version: '2' }"), 'test/health.test.js': "const assert = require('node:assert');\nconst { health } = require('../src/routes/health');\nassert.strictEqual(health(5000, 0).version, '2');\n" } }] });
  const pr45 = s.openPr({ number: 45, title: 'Add mean()', body: 'Needed by the stats endpoint.', author: maya, branch: 'math-mean',
    commits: [{ message: 'Add mean', files: { 'src/lib/math.js': math('\nfunction mean(xs) {\n  return xs.length === 0 ? 0 : sum(xs) / xs.length;\n}\n', ''), 'test/mean.test.js': "const assert = require('node:assert');\nconst { mean } = require('../src/lib/math');\nassert.strictEqual(mean([1, 2, 3]), 2);\n" } }] });
  // #46 overlaps #45 on math.js, but its test already passes on the base (base validity).
  const pr46 = s.openPr({ number: 46, title: 'Document clamp and test it', body: 'No behaviour change.', author: aiko, branch: 'clamp-docs',
    commits: [{ message: 'Document clamp', files: { 'src/lib/math.js': math('', '// clamp(x, lo, hi) keeps x within [lo, hi].\n'), 'test/clamp.test.js': "const assert = require('node:assert');\nconst { clamp } = require('../src/lib/math');\nassert.strictEqual(clamp(5, 0, 3), 3);\n" } }] });
  s.mergePr(pr44, 'squash');
  s.mergePr(pr45, 'squash');
  s.mergePr(pr46, 'squash', { 'src/lib/math.js': math('\nfunction mean(xs) {\n  return xs.length === 0 ? 0 : sum(xs) / xs.length;\n}\n', '// clamp(x, lo, hi) keeps x within [lo, hi].\n') });
  s.noise(5);
  const fixCommit = s.commit('Strip trailing dashes from slugs again', { 'src/lib/slug.js': slugFixed, 'test/slug-trailing.test.js': "const assert = require('node:assert');\nconst { slugify } = require('../src/lib/slug');\nassert.strictEqual(slugify('Hello, World!'), 'hello-world');\n" }, priya);
  s.noise(20);
  s.h.tag('v2.2.0', s.h.tip('main'), s.time);
  const end = s.time;

  // Regressions whose fix PR carries a test: the probe stage derives a transplanted-test probe
  // from each fix (no hand-written spec). #220 and #221 verify; #222's fix edits a test file that
  // did not exist yet at the regression (not-applicable); #223's new test fails every second run
  // (flaky); #224's test also checks a helper the fix adds, so it fails before the regression too
  // (not-a-boundary).
  const edit = (path: string, from: string, to: string): string => {
    const text = s.h.file('main', path)!;
    if (!text.includes(from)) throw new Error(`quill world: ${path} lacks ${JSON.stringify(from)}`);
    return text.replace(from, to);
  };
  const countCulprit = s.commit('Simplify the plural rule in formatCount', { 'src/lib/format.js': edit('src/lib/format.js', "(n === 1 ? '' : 's')", "(n > 1 ? 's' : '')") }, tomas);
  s.noise(3);
  const sumCulprit = s.commit('Drop the initial value from sum', { 'src/lib/math.js': edit('src/lib/math.js', 'xs.reduce((a, b) => a + b, 0)', 'xs.reduce((a, b) => a + b)') }, jonas);
  s.noise(3);
  const hostCulprit = s.commit('Read HOST without a fallback', { 'src/lib/config.js': edit('src/lib/config.js', 'host: env.HOST || DEFAULT_HOST,', 'host: env.HOST,') }, sam);
  s.noise(2);
  const configTest = "const assert = require('node:assert');\nconst { loadConfig } = require('../src/lib/config');\nassert.strictEqual(loadConfig({ PORT: '8081' }).port, 8081);\n";
  s.commit('Add a config test', { 'test/config.test.js': configTest }, maya);
  s.noise(2);
  const accountsCulprit = s.commit('Trim the accounts listing', { 'src/routes/accounts.js': edit('src/routes/accounts.js', '({ id: u.id, name: u.name, slug: u.slug })', '({ id: u.id, slug: u.slug })') }, aiko);
  s.noise(2);
  const nameCulprit = s.commit('Speed up formatName', { 'src/lib/format.js': edit('src/lib/format.js', "return (first + ' ' + last).trim();", "return first + ' ' + last;") }, priya);
  s.noise(4);
  const reportAt2 = s.tick(1);
  s.noise(4);
  const testFile = (body: string): string => `const assert = require('node:assert');\n${body}`;
  const fixes: { number: number; title: string; closes: number; author: typeof maya; files: () => Record<string, string> }[] = [
    { number: 50, title: 'Say "0 items", not "0 item"', closes: 220, author: tomas, files: () => ({
      'src/lib/format.js': edit('src/lib/format.js', "(n > 1 ? 's' : '')", "(n === 1 ? '' : 's')"),
      'test/format-count.test.js': testFile("const { formatCount } = require('../src/lib/format');\nassert.strictEqual(formatCount(0, 'item'), '0 items');\nassert.strictEqual(formatCount(1, 'item'), '1 item');\n"),
    }) },
    { number: 51, title: 'sum() of an empty list is 0 again', closes: 221, author: jonas, files: () => ({
      'src/lib/math.js': edit('src/lib/math.js', 'xs.reduce((a, b) => a + b)', 'xs.reduce((a, b) => a + b, 0)'),
      'test/sum-empty.test.js': testFile("const { sum } = require('../src/lib/math');\nassert.strictEqual(sum([]), 0);\n"),
    }) },
    { number: 52, title: 'Fall back to the default host', closes: 222, author: sam, files: () => ({
      'src/lib/config.js': edit('src/lib/config.js', 'host: env.HOST,', 'host: env.HOST || DEFAULT_HOST,'),
      'test/config.test.js': `${configTest}assert.strictEqual(loadConfig({}).host, '0.0.0.0');\n`,
    }) },
    { number: 53, title: 'List account names again', closes: 223, author: aiko, files: () => ({
      'src/routes/accounts.js': edit('src/routes/accounts.js', '({ id: u.id, slug: u.slug })', '({ id: u.id, name: u.name, slug: u.slug })'),
      // Shares a port with another suite, so it fails whenever they overlap: here, every second run.
      'test/accounts.test.js': testFile([
        "const fs = require('node:fs');",
        "const path = require('node:path');",
        "const os = require('node:os');",
        "const { listUsers } = require('../src/routes/accounts');",
        "const runs = path.join(os.homedir(), '.accounts-test-runs');",
        "const n = (fs.existsSync(runs) ? Number(fs.readFileSync(runs, 'utf8')) : 0) + 1;",
        'fs.writeFileSync(runs, String(n));',
        "if (n % 2 === 0) throw new Error('EADDRINUSE: port 4100 is already in use');",
        "assert.deepStrictEqual(listUsers({ users: [{ id: 1, name: 'Ana', slug: 'ana' }] }), [{ id: 1, name: 'Ana', slug: 'ana' }]);",
        '',
      ].join('\n')),
    }) },
    { number: 54, title: 'Trim names again and add formatInitials', closes: 224, author: priya, files: () => ({
      'src/lib/format.js': `${edit('src/lib/format.js', "return first + ' ' + last;", "return (first + ' ' + last).trim();")}
function formatInitials(first, last) {
  return first.charAt(0) + '.' + last.charAt(0) + '.';
}
module.exports.formatInitials = formatInitials;
`,
      'test/format-name.test.js': testFile("const { formatName, formatInitials } = require('../src/lib/format');\nassert.strictEqual(formatName('Ana', ''), 'Ana');\nassert.strictEqual(formatInitials('Ana', 'Lima'), 'A.L.');\n"),
    }) },
  ];
  for (const f of fixes) {
    // Four days apart, so no two of them form a coupled-pair candidate.
    s.tick(96);
    const pr = s.openPr({ number: f.number, title: f.title, body: `Fixes #${f.closes}.`, author: f.author, branch: `fix-${f.closes}`,
      commits: [{ message: f.title, files: f.files() }], closes: [f.closes] });
    s.mergePr(pr, 'squash');
    s.noise(1);
  }

  const after = (w: RepoScript): void => {
    const sha = (m: number) => w.h.sha(m);
    const slug = sha(slugCulprit);
    w.issue({ number: 201, title: 'Slugs end with a dash when the title ends with punctuation', author: 'rosa-dev', at: reportAt,
      body: `Since upgrading to 2.1.0, article slugs keep a trailing dash when the title ends with punctuation.

**Steps to reproduce**
\`\`\`js
const { slugify } = require('./src/lib/slug');
console.log(slugify('Hello, World!'));
\`\`\`

**Expected:** \`hello-world\`
**Actual:** \`hello-world-\`

This breaks our canonical URLs: \`/posts/hello-world-\` no longer matches the links we already published.

Environment: quill-api 2.1.0, Node 20.11, Ubuntu 22.04.`,
      comments: [
        { author: priya, afterHours: 5, body: `Thanks for the clear report. I bisected this to ${slug.slice(0, 12)} ("Simplify slugify regex"); reverting it locally makes the trailing dash go away.` },
        { author: 'rosa-dev', afterHours: 7, body: 'Confirmed, thanks for looking so quickly.' },
      ] });
    probes.push({ repo: QUILL, number: 201, spec: {
      setup: ['test -f src/lib/slug.js'],
      trigger: `node -e "const { slugify } = require('./src/lib/slug'); console.log(JSON.stringify({ slug: slugify('Hello, World!') }))"`,
      symptom: { stdout_contains: '"slug":"hello-world-"' },
      exercised: { marker: '"slug":' },
      timeout_s: 20, repeats: 3,
    } });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#201', expect: 'admitted, probe verified' });

    w.issue({ number: 202, title: 'User list is missing the slug field intermittently', author: 'kwame', at: reportAt + 3600,
      body: `After updating from 2.0.0 to 2.1.0 the \`GET /users\` response sometimes lacks \`slug\`, and some slugs end with "-".\n\nRepro: start the API, create a user named "Ana!" and list users.\n\nExpected \`"slug": "ana"\`, got \`"slug": "ana-"\`.`,
      comments: [
        { author: 'kwame', afterHours: 3, body: `git bisect points to ${sha(compA).slice(0, 10)} for me.` },
        { author: 'lena-h', afterHours: 6, body: `Odd: my bisect lands on ${slug.slice(0, 10)} instead, same reproduction.` },
      ] });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#202', expect: 'rejected: competing' });

    w.issue({ number: 203, title: 'Crash on Node 22.3 when reading request bodies', author: 'ivo', at: reportAt + 7200,
      body: 'With Node 22.3 every POST crashes with `TypeError: Cannot read properties of undefined (reading \'length\')` in `src/server.js`.\n\nThe regression was introduced by https://github.com/nodejs/node/commit/4f7c1a2b9d8e6f5a4b3c2d1e0f9a8b7c6d5e4f3a in Node itself; on 22.2 everything works.',
      comments: [] });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#203', expect: 'rejected: cross-repository' });

    w.issue({ number: 204, title: 'slugify leaves a trailing dash (again?)', author: 'noor', at: end - 3 * 3600,
      body: 'Seeing `hello-world-` from `slugify("Hello, World!")` on an older checkout.',
      comments: [{ author: priya, afterHours: 1, body: `That was fixed by ${sha(fixCommit).slice(0, 9)} on main, please update.` }] });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#204', expect: 'rejected: fix-not-culprit' });

    w.issue({ number: 205, title: 'GET /health returns 500 right after start-up', author: 'dmitri', at: Date.parse(w.pulls.find((p) => p.number === 17)!.merged_at!) / 1000 + 40 * 3600,
      body: 'Calling `GET /health` within the first second after start-up returns HTTP 500:\n\n```\nTypeError: Cannot convert undefined to a number\n    at health (src/routes/health.js:4:30)\n```\n\nWorks on 2.0.0.',
      comments: [{ author: jonas, afterHours: 4, body: 'Confirmed. This regression was introduced by #17, the uptime change.' }] });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#205', expect: 'candidate via PR reference (no probe)' });
    void pr17merge;

    w.issue({ number: 210, title: 'Docs say port 3000 but the container listens on 8080', author: 'fatima', at: issue210At,
      body: 'The setup guide (`docs/setup.md`) says the API listens on port 3000, but the container image exposes 8080. Please document both.', closedAfterHours: 30 });
    w.issue({ number: 211, title: 'Rename the users route to accounts', author: tomas, at: issue210At + 30 * 3600,
      body: 'The product calls them accounts now; `src/routes/users.js` should become `src/routes/accounts.js` and the server wiring should follow.', closedAfterHours: 40 });
    w.issue({ number: 212, title: 'Start-up takes 4 seconds', author: 'li-wei', at: issue210At + 40 * 3600,
      body: 'Cold start of the API takes about 4 s on a small VM. Most of it is loading routes and validating config eagerly.', closedAfterHours: 80 });
    w.issue({ number: 213, title: 'User fixtures lack ids', author: priya, at: issue210At + 60 * 3600,
      body: 'Every fixture under `test/fixtures/users/` should carry an `id` so the new tests can reference users.', closedAfterHours: 90 });
    w.issue({ number: 214, title: 'Add a nightly smoke test', author: jonas, at: issue210At + 70 * 3600,
      body: 'We should have a smoke script that loads the server, run nightly and whenever the script changes.', closedAfterHours: 100 });
    w.issue({ number: 215, title: 'Reject invalid PORT values', author: 'maya', at: issue210At + 80 * 3600,
      body: 'Setting `PORT=abc` starts the server on NaN. Validate the value.',
      comments: [{ author: 'fatima', afterHours: 2, body: 'And please mention the accepted range somewhere.' }], closedAfterHours: 120 });
    exp.push({ repo: QUILL, kind: 'forward', ref: '#210/#21', expect: 'admitted: docs + lint' });
    exp.push({ repo: QUILL, kind: 'forward', ref: '#211/#22', expect: 'admitted: rename' });
    exp.push({ repo: QUILL, kind: 'forward', ref: '#212/#23,#24', expect: 'flagged: multi-link' });
    exp.push({ repo: QUILL, kind: 'forward', ref: '#213/#25', expect: 'rejected: path-limit' });
    exp.push({ repo: QUILL, kind: 'forward', ref: '#214/#26', expect: 'admitted: the added workflow is not in the gold' });
    exp.push({ repo: QUILL, kind: 'forward', ref: '#215/#27', expect: 'flagged: scope-ambiguous' });
    exp.push({ repo: QUILL, kind: 'pair', ref: '#40+#41', expect: 'coupled' });
    exp.push({ repo: QUILL, kind: 'pair', ref: '#42+#43', expect: 'rejected: textual-conflict' });
    exp.push({ repo: QUILL, kind: 'pair', ref: '#44+#45', expect: 'control' });
    exp.push({ repo: QUILL, kind: 'pair', ref: '#45+#46', expect: 'rejected: base-validity' });

    const bisected = (m: number, subject: string, how: string): string => `${how} ${w.h.sha(m).slice(0, 12)} ("${subject}").`;
    w.issue({ number: 220, title: 'Counts of zero read "0 item"', author: 'amara', at: reportAt2,
      body: 'Since the last deploy the dashboard shows "0 item" and "0 file" where it used to say "0 items" and "0 files".\n\n**Steps to reproduce**\n```js\nconst { formatCount } = require(\'./src/lib/format\');\nconsole.log(formatCount(0, \'item\'));\n```\n\n**Expected:** `0 items`\n**Actual:** `0 item`',
      comments: [{ author: tomas, afterHours: 2, body: bisected(countCulprit, 'Simplify the plural rule in formatCount', 'Reproduced. git bisect lands on') }] });
    w.issue({ number: 221, title: 'sum() throws on an empty list', author: 'bjorn', at: reportAt2 + 3600,
      body: 'The stats endpoint crashes for users without orders because `sum([])` now throws.\n\n**Reproduction script**\n```js\nconst { sum } = require(\'./src/lib/math\');\nconsole.log(sum([]));\n```\n\nOutput:\n```\nTypeError: Reduce of empty array with no initial value\n```\n\nIt printed `0` before.',
      comments: [{ author: jonas, afterHours: 3, body: bisected(sumCulprit, 'Drop the initial value from sum', 'My bad: I bisected it to') }] });
    w.issue({ number: 222, title: 'Server binds to "undefined" when HOST is unset', author: 'chen', at: reportAt2 + 2 * 3600,
      body: 'Starting the API without `HOST` in the environment now logs `listening on undefined:3000` and the health check cannot reach it.\n\nExpected it to bind to 0.0.0.0 as before.',
      comments: [{ author: sam, afterHours: 2, body: bisected(hostCulprit, 'Read HOST without a fallback', 'Confirmed; bisecting points to') }] });
    w.issue({ number: 223, title: 'Account names are missing from the listing', author: 'dana', at: reportAt2 + 3 * 3600,
      body: 'The accounts listing returns `{ "id": 1, "slug": "ana" }` without the `name` field, so the admin page shows empty names.\n\nExpected `{ "id": 1, "name": "Ana", "slug": "ana" }`.',
      comments: [{ author: aiko, afterHours: 1, body: bisected(accountsCulprit, 'Trim the accounts listing', 'Bisected to') }] });
    w.issue({ number: 224, title: 'formatName leaves a trailing space', author: 'eli', at: reportAt2 + 4 * 3600,
      body: 'For users without a last name, `formatName(\'Ana\', \'\')` returns `"Ana "` with a trailing space, which breaks our exact-match search.\n\nExpected `"Ana"`.',
      comments: [{ author: priya, afterHours: 2, body: bisected(nameCulprit, 'Speed up formatName', 'Thanks. git bisect says the first bad commit is') }] });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#220', expect: 'admitted, transplanted probe from #50 verified' });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#221', expect: 'admitted, transplanted probe from #51 verified; draft from the reproduction script' });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#222', expect: 'candidate: probe-not-applicable (test/config.test.js is newer than the regression)' });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#223', expect: 'candidate: probe-flaky (the fix\'s test fails every second run)' });
    exp.push({ repo: QUILL, kind: 'backward', ref: '#224', expect: 'candidate: probe-not-a-boundary (the fix\'s test also checks a new helper)' });
  };
  return { script: s, probes, expectations: exp, after };
}
