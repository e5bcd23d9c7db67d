import { CI, pr, single, workflow, type ConformanceCase } from './support.js';

const S8 = '§8 branch filters';
const S9 = '§9 path filters';
const S10 = '§10 pattern language';
const S11 = '§11 ordering and ! negation';

/** `paths: [...]` with one changed path: activated or not. */
const path = (name: string, section: string, source: string, patterns: string, changed: string, activated: boolean): ConformanceCase =>
  single(name, section, source, pr(`paths: ${patterns}`), [changed], activated);

/** `branches: [...]` against a base branch: activated or not. */
const branch = (name: string, source: string, patterns: string, base: string, activated: boolean, key = 'branches'): ConformanceCase =>
  single(name, S8, source, pr(`${key}: ${patterns}`), ['src/a.ts'], activated, { base_branch: base });

export const filterCases: ConformanceCase[] = [
  // §8
  branch('branches [main] with base main', 'triggering-workflow-branches1.md: base branch', '[main]', 'main', true),
  branch('branches [main] with base develop', 'triggering-workflow-branches1.md', '[main]', 'develop', false),
  branch("'*' matches a name without a slash", 'cheat sheet: * "all branch names that don\'t contain a slash"', "['*']", 'main', true),
  branch("'*' does not match feature/x", 'x-govuk/govuk-frontend-aspnetcore#573', "['*']", 'bot/fix-thing', false),
  branch("'**' matches feature/x", 'cheat sheet: ** matches all branch names', "['**']", 'feature/x', true),
  branch("'releases/**' matches releases/10/beta", 'cheat sheet branches examples', "['releases/**']", 'releases/10/beta', true),
  branch("'v[12].[0-9]+.[0-9]+' matches v1.10.1", 'cheat sheet: v[12].[0-9]+.[0-9]+ matches v1.10.1', "['v[12].[0-9]+.[0-9]+']", 'v1.10.1', true),
  branch("'v[12].[0-9]+.[0-9]+' does not match v3.1.0", 'cheat sheet: [12] is one of 1 or 2', "['v[12].[0-9]+.[0-9]+']", 'v3.1.0', false),
  branch('branches-ignore [main] with base main: not run', 'workflow syntax branches-ignore', '[main]', 'main', false, 'branches-ignore'),
  branch('branches-ignore [main] with base dev: runs', 'workflow syntax branches-ignore', '[main]', 'dev', true, 'branches-ignore'),
  branch("only-negative branches ['!main'] never runs (base dev)", 'OpenTermsArchive/contrib-declarations#776; docs "must also define at least one branch without !"', "['!main']", 'dev', false),
  branch("only-negative branches ['!main'] never runs (base main)", 'ROUTING §8 ordered model: nothing included', "['!main']", 'main', false),
  branch("releases/** then '!releases/**-alpha' excludes releases/10-alpha", 'triggering-workflow-branches3.md example', "['releases/**', '!releases/**-alpha']", 'releases/10-alpha', false),
  branch("releases/** then '!releases/**-alpha' includes releases/10", 'triggering-workflow-branches3.md example', "['releases/**', '!releases/**-alpha']", 'releases/10', true),
  branch("branches-ignore ['releases/**', '!releases/keep'] un-ignores releases/keep (§19 point 1)", 'ROUTING §11 ordered model 1', "['releases/**', '!releases/keep']", 'releases/keep', true, 'branches-ignore'),
  branch("branches-ignore ['releases/**', '!releases/keep'] ignores releases/old", 'ROUTING §11 ordered model 1', "['releases/**', '!releases/keep']", 'releases/old', false, 'branches-ignore'),
  branch("branches-ignore ['!main'] ignores nothing: runs on main", 'ROUTING §11 ordered model: last match is negative, not ignored', "['!main']", 'main', true, 'branches-ignore'),
  branch("escaped 'feature\\+x' matches the branch feature+x literally", 'github/docs#8106; workflow syntax: escape special characters with \\', "['feature\\+x']", 'feature+x', true),
  branch("unescaped 'feature+x' does not match feature+x (+ is a quantifier)", 'github/docs#8106 a branch with + did not match itself', "['feature+x']", 'feature+x', false),
  branch("unescaped 'feature+x' matches featureeex", 'cheat sheet: + one or more of the preceding character', "['feature+x']", 'featureeex', true),
  branch("'refs/heads/main' does not match base main (§19 point 2)", 'ROUTING §8 reimplementations match the short name', "['refs/heads/main']", 'main', false),
  branch('branches: [] is no branch filter (§19 point 5)', 'act/runner.server treat an empty list as no filter', '[]', 'anything', true),
  branch("branches ['Main'] does not match main: case-sensitive (§19 point 4)", 'ROUTING §10 case sensitivity: model case-sensitive', "['Main']", 'main', false),
  single('branches and paths combine with AND (branch fails)', S8, 'triggering-workflow-branches4.md "only run when both filters are satisfied"', pr("branches: [main]\npaths: ['src/**']"), ['src/a.ts'], false, { base_branch: 'dev' }),
  single('branches and paths combine with AND (path fails)', S8, 'triggering-workflow-branches4.md', pr("branches: [main]\npaths: ['src/**']"), ['docs/a.md'], false),
  single('branches and paths combine with AND (both pass)', S8, 'triggering-workflow-branches4.md', pr("branches: [main]\npaths: ['src/**']"), ['src/a.ts'], true),

  // §9
  path('paths src/** with a change in src', S9, 'workflow syntax paths: at least one path matches', "['src/**']", 'src/a.ts', true),
  path('paths src/** with a change in docs only', S9, 'workflow syntax paths', "['src/**']", 'docs/a.md', false),
  single('paths: one matching file among several is enough', S9, 'triggering-a-workflow-paths "If at least one path matches"', pr("paths: ['src/**']"), ['docs/a.md', 'src/a.ts'], true),
  single('paths-ignore docs/**: docs-only change does not run', S9, 'paths-ignore "When all the path names match"', pr("paths-ignore: ['docs/**']"), ['docs/a.md', 'docs/b.md'], false),
  single('paths-ignore docs/**: docs + src change runs', S9, 'paths-ignore "If any path names do not match"', pr("paths-ignore: ['docs/**']"), ['docs/a.md', 'src/a.ts'], true),
  single('no changed files: paths workflow does not run', S9, '"If there are no files changed, the workflow will not run"', pr("paths: ['**']"), [], false),
  single('no changed files: paths-ignore workflow does not run', S9, '"If there are no files changed" + ROUTING §18 all([]) is true', pr("paths-ignore: ['docs/**']"), [], false),
  single('no changed files: a workflow without path filters runs', S9, 'ROUTING §9 a workflow without path filters does not look at files', pr(), [], true),
  path("only-negative paths ['!docs/**'] never runs", S9, 'miguelgfierro/pybase#56; Sonarr/Sonarr#6520 "It ignores everything"', "['!docs/**']", 'src/a.ts', false),
  path("'docs' matches only a file named docs, not docs/a.md", S9, '"Path patterns must match the whole path"', "['docs']", 'docs/a.md', false),
  path("'docs' matches a file named docs", S9, '"Path patterns must match the whole path"', "['docs']", 'docs', true),
  path("'docs/' matches nothing", S9, 'pro3d-space/PRo3D#777', "['docs/']", 'docs/a.md', false),
  path("a leading '/' matches nothing", S9, 'coralogix/coralogix-operator#500', "['/src/**']", 'src/a.ts', false),
  path("a leading './' matches nothing", S9, 'rhysd/actionlint#521; TheOdinProject/curriculum#28757', "['./src/**']", 'src/a.ts', false),
  path("'vendor/lib/**' does not match the submodule path vendor/lib", S9, 'triggering-a-workflow-paths1.md submodules', "['vendor/lib/**']", 'vendor/lib', false),
  path("'vendor/lib' matches the submodule path vendor/lib", S9, 'triggering-a-workflow-paths1.md "use the path to the top-level submodule directory"', "['vendor/lib']", 'vendor/lib', true),
  single('paths: [] never runs', S9, 'ROUTING §18 any(...) with no pattern included is false', pr('paths: []'), ['src/a.ts'], false),
  single('paths-ignore: [] ignores nothing, so a change runs', S9, 'ROUTING §18 all(ignored([]...)) is false', pr('paths-ignore: []'), ['src/a.ts'], true),

  // §10
  path("'*.md' does not cross '/'", S10, 'cheat sheet: * does not match /', "['*.md']", 'docs/a.md', false),
  path("'*.md' matches a root file", S10, 'cheat sheet', "['*.md']", 'README.md', true),
  path("'**.js' matches src/js/app.js", S10, 'cheat sheet: **.js', "['**.js']", 'src/js/app.js', true),
  path("'**.js' matches index.js", S10, 'cheat sheet: **.js', "['**.js']", 'index.js', true),
  path("'**/README.md' matches README.md at the root", S10, 'cheat sheet; tons-of-skills-marketplace#839 fnmatch divergence', "['**/README.md']", 'README.md', true),
  path("'!**/package.json' also excludes the root package.json", S10, 'ROUTING §10 **/ is (.+/)?, so the / is optional', "['**/*.json', '!**/package.json']", 'package.json', false),
  path("'**/*.json' matches a root tsconfig.json", S10, 'ROUTING §10 **/ matches zero directories', "['**/*.json', '!**/package.json']", 'tsconfig.json', true),
  path("'**/README.md' matches a/b/README.md", S10, 'cheat sheet **/README.md', "['**/README.md']", 'a/b/README.md', true),
  path("'docs/**/*.md' matches docs/a.md (zero directories)", S10, 'ROUTING §10 **/ is (.+/)?', "['docs/**/*.md']", 'docs/a.md', true),
  path("'*.jsx?' matches page.js", S10, 'cheat sheet *.jsx? ; github/docs#3377', "['*.jsx?']", 'page.js', true),
  path("'*.jsx?' matches page.jsx", S10, 'cheat sheet *.jsx?', "['*.jsx?']", 'page.jsx', true),
  path("'*.jsx?' does not match page.jsxx", S10, '? is zero or one of the preceding character', "['*.jsx?']", 'page.jsxx', false),
  path("'v[0-9]+/**' matches v10/a.txt", S10, 'cheat sheet: + one or more', "['v[0-9]+/**']", 'v10/a.txt', true),
  path("'v[0-9]+/**' does not match v/a.txt", S10, 'cheat sheet: + one or more', "['v[0-9]+/**']", 'v/a.txt', false),
  path("'[CB]at' matches Cat", S10, 'cheat sheet [CB]at', "['[CB]at']", 'Cat', true),
  path("'[CB]at' does not match Hat", S10, 'cheat sheet [CB]at', "['[CB]at']", 'Hat', false),
  path("'[1-2]00' matches 200", S10, 'cheat sheet [1-2]00', "['[1-2]00']", '200', true),
  path("'[1-2]00' does not match 300", S10, 'cheat sheet [1-2]00', "['[1-2]00']", '300', false),
  path("escaped 'app/blog/\\[slug\\]/**' matches the literal [slug] folder", S10, 'ROUTING §10 Next.js routes need \\[ \\]', "['app/blog/\\[slug\\]/**']", 'app/blog/[slug]/page.tsx', true),
  path("unescaped 'app/blog/[slug]/page.tsx' does not match the literal folder", S10, 'ROUTING §10 unescaped [slug] is a one-character class', "['app/blog/[slug]/page.tsx']", 'app/blog/[slug]/page.tsx', false),
  path("unescaped 'app/blog/[slug]/page.tsx' matches app/blog/s/page.tsx", S10, 'ROUTING §10 [slug] is one of s,l,u,g', "['app/blog/[slug]/page.tsx']", 'app/blog/s/page.tsx', true),
  path("'.' is literal: 'v1.0/**' does not match v1x0/a", S10, 'ROUTING §10 . is a literal dot', "['v1.0/**']", 'v1x0/a', false),
  path("'*' matches the dotfile .gitignore", S10, 'ROUTING §10 no dotfile exception', "['*']", '.gitignore', true),
  path("'**' matches .github/workflows/ci.yml", S10, 'ROUTING §10 no dotfile exception', "['**']", '.github/workflows/ci.yml', true),
  path("'\\!file' matches the file !file", S10, 'act workflow_pattern tests: \\!file', "['\\!file']", '!file', true),
  path("a '!' that is not first is literal: 'a!b' matches a!b", S10, 'cheat sheet: ! has no special meaning if not first', "['a!b']", 'a!b', true),
  path("'escape\\\\backslash' matches escape\\backslash", S10, 'act tests: escape\\\\backslash', "['escape\\\\backslash']", 'escape\\backslash', true),
  path("'src' must match the whole path: not src/a.ts", S10, 'ROUTING §10 anchored whole-match', "['src']", 'src/a.ts', false),
  path("'a.ts' does not match src/a.ts (no basename matching)", S10, 'ROUTING §9 start from the repository root', "['a.ts']", 'src/a.ts', false),
  path("'SRC/**' does not match src/a.ts: case-sensitive (§19 point 4)", S10, 'ROUTING §10 case sensitivity: model case-sensitive', "['SRC/**']", 'src/a.ts', false),
  path("'src/*/index.ts' matches one directory level", S10, 'cheat sheet: * one path segment', "['src/*/index.ts']", 'src/a/index.ts', true),
  path("'src/*/index.ts' does not match two levels", S10, 'cheat sheet: * does not match /', "['src/*/index.ts']", 'src/a/b/index.ts', false),
  path("a leading '?' is literal: '?x' matches ?x", S10, 'ROUTING §10 ? and + are literal when first (act/runner.server)', "['?x']", '?x', true),

  // §11
  path("['*.md', '!README.md'] matches hello.md", S11, 'cheat sheet ordering example', "['*.md', '!README.md']", 'hello.md', true),
  path("['*.md', '!README.md'] excludes README.md", S11, 'cheat sheet ordering example', "['*.md', '!README.md']", 'README.md', false),
  path("['*.md', '!README.md'] does not match docs/hello.md", S11, 'cheat sheet ordering example', "['*.md', '!README.md']", 'docs/hello.md', false),
  path("['*.md', '!README.md', 'README*'] re-includes README.md", S11, 'cheat sheet: a later positive re-includes', "['*.md', '!README.md', 'README*']", 'README.md', true),
  path("['*.md', '!README.md', 'README*'] also matches README.doc", S11, 'cheat sheet', "['*.md', '!README.md', 'README*']", 'README.doc', true),
  path("['!README.md', '*.md']: a later positive wins", S11, 'ROUTING §11 last matching pattern wins', "['!README.md', '*.md']", 'README.md', true),
  single("paths ['src/**', '!src/generated/**'] with only generated files", S11, 'ROUTING §11 negative after positive excludes', pr("paths: ['src/**', '!src/generated/**']"), ['src/generated/a.ts', 'src/generated/b.ts'], false),
  single("paths ['src/**', '!src/generated/**'] with a hand-written file too", S11, 'ROUTING §11', pr("paths: ['src/**', '!src/generated/**']"), ['src/generated/a.ts', 'src/main.ts'], true),
  single("paths-ignore ['.github/workflows/**', '!**.md']: echo.go runs", S11, 'actions/runner#2324 observation (contradicts model 3)', pr("paths-ignore: ['.github/workflows/**', '!**.md']"), ['samples/echo/echo.go'], true),
  single("paths-ignore ['.github/workflows/**', '!**.md']: workflow YAML alone does not run", S11, 'actions/runner#2324 observation', pr("paths-ignore: ['.github/workflows/**', '!**.md']"), ['.github/workflows/ci.yml'], false),
  single("paths-ignore ['.github/workflows/**', '!**.md']: a .md under workflows is un-ignored (§19 point 1)", S11, 'ROUTING §11 model 1 (ordered)', pr("paths-ignore: ['.github/workflows/**', '!**.md']"), ['.github/workflows/README.md'], true),
  single("paths-ignore ['docs/**', '!docs/api/**']: docs/api change runs (§19 point 1)", S11, 'ROUTING §11 model 1 (ordered)', pr("paths-ignore: ['docs/**', '!docs/api/**']"), ['docs/api/x.md'], true),
  single("paths-ignore ['!docs/**'] only negative: docs change is not ignored", S11, 'ROUTING §11 model 1: last match negative means not ignored', pr("paths-ignore: ['!docs/**']"), ['docs/a.md'], true),
  {
    name: 'the same list in paths and in a second file with paths-ignore agree on ordering',
    section: S11,
    source: 'ROUTING §18 ignored(patterns, s) = included(patterns, s)',
    files: {
      [CI]: pr("paths: ['lib/**', '!lib/vendor/**', 'lib/vendor/ours/**']"),
      '.github/workflows/lint.yml': pr("paths-ignore: ['lib/**', '!lib/vendor/**', 'lib/vendor/ours/**']"),
    },
    changed: ['lib/vendor/ours/x.c'],
    activated: [CI],
  },
  single("workflow(): positive after negative in branches re-includes", S11, 'ROUTING §11 applies to branches too', workflow("on:\n  pull_request:\n    branches: ['!release/**', 'release/keep']"), ['src/a.ts'], true, { base_branch: 'release/keep' }),
];
