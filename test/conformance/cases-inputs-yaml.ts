import { CI, invalid, pr, single, workflow, type ConformanceCase } from './support.js';

const PRT = '.github/workflows/target.yml';
const S1 = '§1 inputs and activation';
const S2 = '§2 which files are workflows';
const S3 = '§3 YAML parsing';
const S4 = '§4 invalid workflows';
const S5 = '§5 shapes of on';
const S6 = '§6 which events count';
const S7 = '§7 activity types';

const VALID = pr();
const at = (path: string, activated: boolean, name: string, source: string, text = VALID): ConformanceCase => ({
  name,
  section: S2,
  source,
  files: { [path]: text },
  changed: ['src/a.ts'],
  activated: activated ? [path] : [],
});

export const inputsAndYamlCases: ConformanceCase[] = [
  // §1
  single('a file listening to pull_request and pull_request_target counts once', S1, 'ROUTING §1 "A file that listens to both counts once"', workflow('on:\n  pull_request:\n  pull_request_target:'), ['src/a.ts'], true),
  single('pull_request_target alone is activated by the pull_request activity', S1, 'ROUTING §1; events page: pull_request_target uses the pull_request webhook payload', pr('', 'pull_request_target'), ['src/a.ts'], true),
  single('changed-path order does not matter below 300 files (match last)', S1, 'ROUTING §1 "list order matters only for the 300-file limit"', pr("paths: ['src/**']"), ['docs/a.md', 'lib/b.c', 'src/a.ts'], true),
  single('merge_conflict absent means mergeable', S1, 'ROUTING §1 optional merge_conflict, default false', pr(), ['src/a.ts'], true),
  single('a push-only workflow is not activated by a pull request', S1, 'ROUTING §1 only pull_request/pull_request_target triggers count', workflow('on:\n  push:'), ['src/a.ts'], false),

  // §2
  at('.github/workflows/ci.yml', true, '.yml directly in .github/workflows is a workflow', 'workflow syntax "About YAML syntax for workflows"'),
  at('.github/workflows/ci.yaml', true, '.yaml directly in .github/workflows is a workflow', 'workflow syntax: .yml or .yaml extension'),
  at('.github/workflows/sub/ci.yml', false, 'subdirectories of .github/workflows are not scanned', 'community discussion 10773; nteract/desktop#447'),
  at('.github/ci.yml', false, '.github/ci.yml is not a workflow', 'ROUTING §2 other places do not count'),
  at('.github/workflow/ci.yml', false, '.github/workflow (singular) is not scanned', 'ROUTING §2 other places do not count'),
  at('workflows/ci.yml', false, 'a root workflows/ folder is not scanned', 'ROUTING §2 other places do not count'),
  at('.gitea/workflows/ci.yml', false, '.gitea/workflows is not GitHub', 'ROUTING §2; Gitea precedence is a divergence'),
  at('.github/actions/setup/action.yml', false, 'a composite action is not a workflow', 'ROUTING §2 composite actions do not count'),
  at('.github/workflows/ci.yml.disabled', false, 'ci.yml.disabled does not end in .yml', 'workflow syntax: extension must be .yml or .yaml'),
  at('.github/workflows/README.md', false, 'README.md inside the folder is not a workflow', 'ROUTING §2'),
  at('.github/workflows/.ci-test.yml', true, 'a dot-prefixed file name is loaded (§19 point 10)', 'ROUTING §2, sgerrand/actions; not settled, model: loaded'),
  at('.github/workflows/CI.YML', false, 'upper-case extension is not a workflow (case-sensitive, §19 point 10 companion)', 'ROUTING §2 upper-case extensions not settled; model: case-sensitive'),

  // §3
  single('bare on: is the string key "on" under YAML 1.2', S3, 'YamlObjectReader.cs "YAML 1.2 core schema"', 'on:\n  pull_request:\njobs:\n  t:\n    runs-on: ubuntu-latest\n', ['x'], true),
  single('"on": (double-quoted) is the same key', S3, 'geofffranks/spruce#337: "on": works', '"on":\n  pull_request:\njobs:\n  t:\n    runs-on: ubuntu-latest\n', ['x'], true),
  single("'on': (single-quoted) is the same key", S3, 'ROUTING §3 accept on, "on" and \'on\'', "'on':\n  pull_request:\njobs:\n  t:\n    runs-on: ubuntu-latest\n", ['x'], true),
  invalid('true: instead of on: is an unknown root key', S3, 'geofffranks/spruce#337: true: fails', 'true:\n  pull_request:\njobs:\n  t:\n    runs-on: ubuntu-latest\n', 'unknown-root-key'),
  invalid('"true": instead of on: is an unknown root key', S3, 'geofffranks/spruce#337: "true": fails', '"true":\n  pull_request:\njobs:\n  t:\n    runs-on: ubuntu-latest\n', 'unknown-root-key'),
  invalid('a YAML syntax error makes the file invalid', S3, 'ROUTING §3 any YAML syntax error', 'on:\n  pull_request:\n    paths: [src/**\njobs:\n  t:\n    runs-on: x\n', 'yaml-syntax'),
  invalid('unquoted - **/README.md parses as an alias: invalid', S3, 'cheat sheet: patterns starting with * must be quoted', pr('paths:\n  - **/README.md'), 'unresolved-alias'),
  invalid('flow sequence with [ ] inside a pattern is a parse error', S3, 'cheat sheet: branches: [ main, release/v[0-9].[0-9] ] "Invalid"', pr('branches: [ main, release/v[0-9].[0-9] ]'), 'yaml-syntax'),
  invalid('unquoted - !docs/** is an unknown tag', S3, 'YamlObjectReader.cs "Unexpected tag"', pr('paths:\n  - !docs/**'), 'unknown-tag'),
  single("quoted '!docs/**' is a negative pattern, not a tag", S3, 'cheat sheet: patterns that start with ! must be quoted', pr("paths:\n  - '**'\n  - '!docs/**'"), ['docs/a.md'], false),
  invalid('duplicate root key is an error', S3, 'TemplateReader.cs "\'{0}\' is already defined"', 'on:\n  push:\non:\n  pull_request:\njobs:\n  t:\n    runs-on: x\n', 'duplicate-key'),
  invalid('duplicate key under on.pull_request is an error', S3, 'TemplateReader.cs duplicate keys', pr("paths: ['src/**']\npaths: ['docs/**']"), 'duplicate-key'),
  invalid('on and "on" together are duplicate keys', S3, 'ROUTING §3 on and "on" are the same key; duplicates are errors', 'on: push\n"on": pull_request\njobs:\n  t:\n    runs-on: x\n', 'duplicate-key'),
  single('an anchor defined on push and aliased by pull_request applies', S3, 'actions/runner#1182; changelog 2025-09-18 YAML anchors', workflow("on:\n  push:\n    paths: &p ['src/**']\n  pull_request:\n    paths: *p"), ['src/a.ts'], true),
  single('an aliased event config filters like the original', S3, 'docs "YAML anchors and aliases"', workflow("on:\n  push: &cfg\n    paths: ['docs/**']\n  pull_request: *cfg"), ['src/a.ts'], false),
  single('merge key <<: *base inside on.pull_request is an ordinary unknown key, ignored (§19 point 7)', S3, 'actions/runner#1182 maintainer: merge keys not supported; on-mapping loose keys', workflow("on:\n  push: &base\n    paths: ['docs/**']\n  pull_request:\n    <<: *base"), ['src/a.ts'], true),
  invalid('merge key <<: at the root is an unknown root key', S3, 'merge keys not applied; workflow-root is closed', "<<: {name: x}\non: pull_request\njobs:\n  t:\n    runs-on: x\n", 'unknown-root-key'),
  invalid('tabs used for indentation are a YAML error', S3, 'ROUTING §3 tabs', 'on:\n\tpull_request:\njobs:\n  t:\n    runs-on: x\n', 'yaml-syntax'),
  invalid('two YAML documents in one file are an error', S3, 'ROUTING §3 YAML syntax errors', 'on: pull_request\njobs:\n  t:\n    runs-on: x\n---\nname: second\n', 'yaml-syntax'),
  single('explicit core tag !!str is allowed', S3, 'YAML 1.2 core schema tags are known', pr('branches: [!!str main]'), ['src/a.ts'], true),
  invalid('!!binary is not a core-schema tag', S3, 'YamlObjectReader.cs unknown tags throw', pr('branches: [!!binary bWFpbg==]'), 'unknown-tag'),

  // §4
  invalid('an unknown root key makes the file invalid', S4, 'workflow-v1.0.json workflow-root is closed', 'on: pull_request\nfoo: bar\njobs:\n  t:\n    runs-on: x\n', 'unknown-root-key'),
  invalid('missing jobs makes the file invalid', S4, 'workflow-root requires jobs', 'on: pull_request\nname: no jobs\n', 'missing-jobs'),
  invalid('jobs that is not a mapping makes the file invalid', S4, 'workflow-root jobs mapping', 'on: pull_request\njobs: [build]\n', 'missing-jobs'),
  invalid('a job with neither runs-on nor uses makes the file invalid', S4, 'ROUTING §4 job-level schema errors', 'on: pull_request\njobs:\n  build:\n    steps:\n      - run: make\n', 'invalid-job'),
  single('a job with uses (reusable workflow call) needs no runs-on', S4, 'ROUTING §18 a job lacks both runs-on and uses', 'on: pull_request\njobs:\n  call:\n    uses: ./.github/workflows/build.yml\n', ['src/a.ts'], true),
  invalid('branches and branches-ignore on pull_request: invalid', S4, 'liferay/clay#3010 "you may only define one of branches and branches-ignore"', pr("branches: [main]\nbranches-ignore: [dev]"), 'exclusive-filters'),
  invalid('paths and paths-ignore on pull_request: invalid', S4, 'py4j/py4j#587 "you may only define one of paths and paths-ignore"', pr("paths: ['src/**']\npaths-ignore: ['docs/**']"), 'exclusive-filters'),
  {
    name: 'paths and paths-ignore on push only still invalidate the file (§19 point 8)',
    section: S4,
    source: 'project-koku/koku-ui#1683 error carries a file position; not settled for push',
    files: { [CI]: workflow("on:\n  push:\n    paths: ['src/**']\n    paths-ignore: ['docs/**']\n  pull_request:") },
    changed: ['src/a.ts'],
    activated: [],
    invalid: { [CI]: 'exclusive-filters' },
  },
  invalid('branches and branches-ignore on pull_request_target: invalid', S4, 'runner.server throws for both pairs; docs "You cannot use both"', pr('branches: [main]\nbranches-ignore: [dev]', 'pull_request_target'), 'exclusive-filters'),
  single('a path: typo under on.pull_request is ignored: runs for every PR', S4, 'actions/runner#545 (only the editor flags it)', pr("path: ['docs/**']"), ['src/a.ts'], true),
  single('a paths_ignore: typo is ignored: still runs for docs-only changes', S4, 'Framstag/libosmscout#1397 "does not change anything"', pr("paths_ignore: ['docs/**']"), ['docs/a.md'], true),
  single('an unknown event name pull-request never matches and is not an error', S4, 'ROUTING §4 unknown event names are lenient', workflow('on:\n  pull-request:'), ['src/a.ts'], false),
  invalid("an invalid range '[z-a]' makes the file invalid (§19 point 9)", S4, 'runner.server "Invalid Pattern"; not settled, model: invalid', pr("paths: ['src/[z-a]/**']"), 'invalid-pattern'),
  invalid("an unclosed '[' makes the file invalid", S4, 'runner.server "Missing closing bracket"', pr("paths: ['src/[ab']"), 'invalid-pattern'),
  invalid("empty brackets '[]' make the file invalid", S4, 'ROUTING §10 "[] empty is an error"', pr("paths: ['src/[]x']"), 'invalid-pattern'),
  invalid('an empty file is not a mapping', S4, 'workflow-root must be a mapping', '', 'not-a-mapping'),
  invalid('a file that is a list is not a mapping', S4, 'workflow-root must be a mapping', '- on: pull_request\n', 'not-a-mapping'),
  {
    name: 'one invalid file does not affect the others',
    section: S4,
    source: 'ROUTING §4: GitHub isolates the failure to that file (act aborts all: divergence)',
    files: { [CI]: 'on: pull_request\nfoo: 1\njobs:\n  t:\n    runs-on: x\n', '.github/workflows/ok.yml': pr() },
    changed: ['src/a.ts'],
    activated: ['.github/workflows/ok.yml'],
    invalid: { [CI]: 'unknown-root-key' },
  },

  // §5
  single('on: pull_request (a single event name)', S5, 'workflow syntax "on"', 'on: pull_request\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], true),
  single('on: [push, pull_request] (a list of events)', S5, 'workflow syntax "on"', 'on: [push, pull_request]\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], true),
  single('on: [push, workflow_dispatch] has no PR trigger', S5, 'workflow syntax "on"', 'on: [push, workflow_dispatch]\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], false),
  single('pull_request: with null config has no filters', S5, 'reusable actions-multiple-types.md "append a colon"', workflow('on:\n  push:\n    branches: [main]\n  pull_request:'), ['anything'], true),
  single('pull_request: {} has no filters', S5, 'ROUTING §5 null and {} mean no filters', workflow('on:\n  pull_request: {}'), ['anything'], true),
  single('flow mapping on: {pull_request: {branches: [main]}} works', S5, 'ROUTING §5 flow mappings are ordinary YAML', 'on: {pull_request: {branches: [main]}}\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], true),
  single('no on key: valid but never activated', S5, 'ROUTING §5 on missing: no trigger', 'name: nothing\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], false),
  single('on: with null value: never activated', S5, 'ROUTING §5 on: null', 'on:\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], false),
  single('types: synchronize as a single string', S5, 'languageservices events-single-with-types.yml', pr('types: synchronize'), ['src/a.ts'], true),
  single('types: opened as a single string excludes synchronize', S5, 'languageservices convertFilter wraps a string', pr('types: opened'), ['src/a.ts'], false),
  single('branches: main as a single string', S5, 'runner.server "branches: branchname is valid"', pr('branches: main'), ['src/a.ts'], true),
  single("paths: 'docs/**' as a single string", S5, 'schema one-of non-empty-string / sequence', pr("paths: 'docs/**'"), ['src/a.ts'], false),
  invalid('an event config that is a list is invalid', S5, 'languageservices convertOn: assertMapping for event values', pr('- opened'), 'invalid-event'),
  invalid('a null filter value (paths: with nothing) is invalid', S5, 'languageservices convertPatternFilter: assertSequence', pr('paths:'), 'invalid-filter'),

  // §6
  single('pull_request_review is a different webhook', S6, 'ROUTING §6', workflow('on:\n  pull_request_review:'), ['src/a.ts'], false),
  single('merge_group is a different webhook', S6, 'ROUTING §6', workflow('on:\n  merge_group:'), ['src/a.ts'], false),
  single('none of the other PR-adjacent events counts', S6, 'ROUTING §6 list of other events', 'on: [pull_request_review, pull_request_review_comment, issue_comment, merge_group, check_run, check_suite, status, workflow_run, push, workflow_dispatch]\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], false),
  single('pullrequest (misspelled) never matches', S6, 'ROUTING §6 event names are exact strings', 'on: pullrequest\njobs:\n  t:\n    runs-on: x\n', ['src/a.ts'], false),

  // §7
  single('default types include synchronize', S7, 'events page: "opened, synchronize, or reopened"', pr('branches: [main]'), ['src/a.ts'], true),
  single('default types include opened', S7, 'events page pull_request note', pr(), ['src/a.ts'], true, { action: 'opened' }),
  single('default types include reopened', S7, 'events page pull_request note', pr(), ['src/a.ts'], true, { action: 'reopened' }),
  single('default types exclude labeled', S7, 'events page; github/docs#18419 (not all types by default)', pr(), ['src/a.ts'], false, { action: 'labeled' }),
  single('default types exclude closed', S7, 'events page pull_request note', pr(), ['src/a.ts'], false, { action: 'closed' }),
  single('default types exclude edited', S7, 'events page pull_request note', pr(), ['src/a.ts'], false, { action: 'edited' }),
  single('types replaces the default: [labeled] excludes synchronize', S7, 'parse-community/parse-server#10610', pr('types: [labeled]'), ['src/a.ts'], false),
  single('types [ready_for_review, synchronize] includes synchronize', S7, 'ROUTING §7 list all four to add ready_for_review', pr('types: [opened, synchronize, reopened, ready_for_review]'), ['src/a.ts'], true),
  single('types: [] matches no action (§19 point 5)', S7, 'ROUTING §7 empty list undocumented; model: no type matches', pr('types: []'), ['src/a.ts'], false),
  single("types: [synchronized] (misspelled) never matches and is not an error (§19 point 6)", S7, 'ROUTING §7 note synchronize, not synchronized', pr('types: [synchronized]'), ['src/a.ts'], false),
  single("types: ['*'] is exact string equality, matches nothing (§19 point 6)", S7, 'ROUTING §7 no globbing in types', pr("types: ['*']"), ['src/a.ts'], false),
  single('pull_request_target default types include opened', S7, 'events page pull_request_target note', pr('', 'pull_request_target'), ['src/a.ts'], true, { action: 'opened' }),
  single('pull_request_target default types exclude labeled', S7, 'events page pull_request_target note', pr('', 'pull_request_target'), ['src/a.ts'], false, { action: 'labeled' }),
  {
    name: 'types on pull_request_target is independent of pull_request',
    section: S7,
    source: 'ROUTING §14 same activity types per trigger',
    files: { [PRT]: workflow('on:\n  pull_request:\n    types: [labeled]\n  pull_request_target:\n    types: [synchronize]') },
    changed: ['src/a.ts'],
    activated: [PRT],
  },
];
