/**
 * The planted-leak suite: 61 ways a package set can leak or be incomplete, each planted into a
 * copy of a clean set and each caught by `package audit` with a finding naming it.
 */
import { appendFileSync, chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPackages } from '../../../src/export/audit.js';
import { packageBackward, packageForward } from '../../../src/export/package.js';
import { BackwardManifestRecord, ForwardManifestRecord } from '../../../src/export/read-manifest.js';
import { cleanupTempDirs, makeRepo, tempDir } from '../../support/make-repo.js';

const BID = 'acme_widget__1__0000000a';
/** The same case packaged without a work tree (`--work-tree none`). */
const LID = 'acme_widget__3__0000000c';
const FID = 'acme_widget__2__0000000b';
const WORKFLOW = '.github/workflows/ci.yml';

interface World {
  mirror: string;
  gold: string;
  cutoff: string;
  after: string;
  pristine: string;
}

let w: World;

beforeAll(async () => {
  const repo = await makeRepo();
  await repo.commit('Initial import', {
    files: { 'src/a.js': 'a1\n', 'README.md': '# w\n', 'bin/run.sh': '#!/bin/sh\n', [WORKFLOW]: 'on: pull_request\njobs: {}\n', 'docs/link': 'x\n' },
  });
  chmodSync(join(repo.dir, 'bin', 'run.sh'), 0o755);
  await repo.git(['add', '-A']);
  await repo.git(['commit', '-q', '--amend', '--no-edit']);
  const base = await repo.rev('HEAD');
  const gold = await repo.commit('Break a', { files: { 'src/a.js': 'a2\n' } });
  const cutoff = await repo.commit('Tidy', { files: { 'README.md': '# widget\n' } });
  const after = await repo.commit('Later work', { files: { 'src/a.js': 'a3\n', 'LATER.md': 'future\n' } });
  await repo.tag('v9', after);
  const mirror = await repo.bareMirror();
  const pristine = await tempDir('r2v-pristine-');
  const backward = (id: string) =>
    BackwardManifestRecord.parse({
      task: 'backward', case_id: id, repo: 'acme/widget', number: 1, report: 'render crashes on nested groups\n', report_time: '2024-01-02T00:00:00Z',
      default_branch: 'main', cutoff, gold, parent: base, history_window: 1, checks: {}, digests: { cutoff_tree: null },
    });
  await packageBackward(backward(BID), mirror, pristine);
  await packageBackward(backward(LID), mirror, pristine, { workTree: 'none' });
  await packageForward(
    ForwardManifestRecord.parse({
      task: 'forward', case_id: FID, repo: 'acme/widget', issue: 2, pull: 7, issue_text: 'The README is terse.', base: cutoff, head: after,
      context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' }, changed_paths: ['README.md'], gold: [WORKFLOW], evaluator: 'routing/1',
      source: { issue_url: 'https://github.com/acme/widget/issues/2', pr_url: 'https://github.com/acme/widget/pull/7' },
      digests: { base_tree: null, workflows: null, changed_paths: null, context: null },
    }),
    mirror,
    pristine,
  );
  w = { mirror, gold, cutoff, after, pristine };
});

afterAll(async () => {
  await cleanupTempDirs();
});

interface Set {
  out: string;
  b: string;
  git: string;
  f: string;
  /** The package without a work tree. */
  l: string;
  bgit: (args: string[]) => Promise<string>;
}

async function copySet(): Promise<Set> {
  const out = await tempDir('r2v-planted-');
  cpSync(w.pristine, out, { recursive: true, verbatimSymlinks: true });
  const b = join(out, BID);
  const bgit = async (args: string[]): Promise<string> =>
    (await execa('git', ['-C', join(b, 'repo'), ...args], { env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@x', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@x' } })).stdout;
  return { out, b, git: join(b, 'repo', '.git'), f: join(out, FID), l: join(out, LID), bgit };
}

/** `.git/info` (packages have none: `git init --template=`). */
const info = (s: Set): string => {
  mkdirSync(join(s.git, 'info'), { recursive: true });
  return join(s.git, 'info');
};

const edit = (path: string, fn: (text: string) => string): void => writeFileSync(path, fn(readFileSync(path, 'utf8')));

/** The history part of the Backward package (read-only as packaged: made writable first). */
const part = (s: Set, name = '00000.jsonl'): string => {
  const path = join(s.b, 'history', name);
  chmodSync(path, 0o644);
  return path;
};
const historyLines = (s: Set): string[] => readFileSync(join(s.b, 'history', '00000.jsonl'), 'utf8').split('\n').filter(Boolean);
const laterLine = (): string => `${JSON.stringify({ sha: w.after, parents: [w.cutoff], timestamp: '2024-01-01T00:00:00Z', author: 'x', message: 'Later work' })}\n`;

type Plant = (s: Set) => void | Promise<void>;

const B = (re: string): RegExp => new RegExp(`^${BID}: ${re}`);
const F = (re: string): RegExp => new RegExp(`^${FID}: ${re}`);

const CASES: readonly [string, Plant, RegExp][] = [
  // Backward: refs and history
  ['a tag past the cutoff', async (s) => void (await s.bgit(['fetch', '-q', '--no-write-fetch-head', w.mirror, 'refs/tags/v9:refs/tags/v9'])), B('unexpected refs: refs/tags/v9')],
  ['a stray branch at the gold', async (s) => void (await s.bgit(['update-ref', 'refs/heads/old', w.gold])), B('unexpected refs: refs/heads/old')],
  ['a stash ref', async (s) => void (await s.bgit(['update-ref', 'refs/stash', w.gold])), B('unexpected refs: refs/stash')],
  ['a notes ref on the gold', async (s) => void (await s.bgit(['notes', 'add', '-m', 'the culprit', w.gold])), B('unexpected refs: refs/notes/commits')],
  ['a packed tag at the gold', (s) => writeFileSync(join(s.git, 'packed-refs'), `# pack-refs with: peeled fully-peeled sorted \n${w.gold} refs/tags/leak\n`), B('unexpected refs: refs/tags/leak')],
  ['main moved past the cutoff', async (s) => {
    await s.bgit(['fetch', '-q', '--no-write-fetch-head', w.mirror, `${w.after}:refs/heads/tmp`]);
    await s.bgit(['update-ref', 'refs/heads/main', w.after]);
    await s.bgit(['update-ref', '-d', 'refs/heads/tmp']);
  }, B('refs/heads/main is [0-9a-f]{40}, not the cutoff')],
  ['a detached HEAD at the gold', async (s) => void (await s.bgit(['update-ref', '--no-deref', 'HEAD', w.gold])), B('HEAD is detached, not refs/heads/main')],
  ['a reflog entry', async (s) => void (await s.bgit(['-c', 'core.logAllRefUpdates=always', 'update-ref', '-m', 'moved', 'refs/heads/main', w.cutoff])), B('reflogs present: logs/')],
  ['a loose object from after the cutoff', async (s) => {
    const raw = (await execa('git', ['-C', w.mirror, 'cat-file', 'commit', w.after])).stdout;
    await execa('git', ['-C', join(s.b, 'repo'), 'hash-object', '-t', 'commit', '-w', '--stdin'], { input: `${raw}\n` });
  }, B(`commit ${'[0-9a-f]{40}'} from after the cutoff is present`)],
  ['an alternates file pointing at the mirror', (s) => writeFileSync(join(s.git, 'objects', 'info', 'alternates'), `${join(w.mirror, 'objects')}\n`), B('objects/info/alternates present in repo/.git')],
  ['a grafts file', (s) => writeFileSync(join(info(s), 'grafts'), `${w.cutoff} ${w.gold}\n`), B('info/grafts present in repo/.git')],
  ['a shallow file', (s) => writeFileSync(join(s.git, 'shallow'), `${w.gold}\n`), B('repository is shallow')],
  ['a remote', async (s) => void (await s.bgit(['remote', 'add', 'origin', w.mirror])), B('remote configured: remote\\.origin\\.url ')],
  ['FETCH_HEAD', (s) => writeFileSync(join(s.git, 'FETCH_HEAD'), `${w.after}\t\tbranch 'main'\n`), B('FETCH_HEAD present in repo/.git')],
  ['ORIG_HEAD', (s) => writeFileSync(join(s.git, 'ORIG_HEAD'), `${w.after}\n`), B('ORIG_HEAD present in repo/.git')],
  ['MERGE_HEAD', (s) => writeFileSync(join(s.git, 'MERGE_HEAD'), `${w.after}\n`), B('MERGE_HEAD present in repo/.git')],
  // Backward: every byte under .git
  ['the gold in .git/description', (s) => writeFileSync(join(s.git, 'description'), `bisected to ${w.gold}\n`), B('\\.git/description contains a prefix of the gold')],
  ['the gold in .git/config', (s) => appendFileSync(join(s.git, 'config'), `[branch "main"]\n\tdescription = regressed in ${w.gold.slice(0, 10)}\n`), B('\\.git/config contains a prefix of the gold')],
  ['an unexpected config setting', (s) => appendFileSync(join(s.git, 'config'), '[user]\n\tname = someone\n'), B('config has unexpected settings: user\\.name')],
  ['the gold in a hook', (s) => {
    mkdirSync(join(s.git, 'hooks'));
    writeFileSync(join(s.git, 'hooks', 'post-checkout'), `#!/bin/sh\n# first bad: ${w.gold}\n`);
  }, B('\\.git/hooks/post-checkout contains a prefix of the gold')],
  ['a sample hook', (s) => {
    mkdirSync(join(s.git, 'hooks'));
    writeFileSync(join(s.git, 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
  }, B('unexpected files in repo/\\.git: hooks/pre-commit\\.sample')],
  ['the gold in .git/info/exclude', (s) => writeFileSync(join(info(s), 'exclude'), `# ${w.gold}\n`), B('\\.git/info/exclude contains a prefix of the gold')],
  ['the gold in COMMIT_EDITMSG', (s) => writeFileSync(join(s.git, 'COMMIT_EDITMSG'), `Revert ${w.gold.slice(0, 12)}\n`), B('\\.git/COMMIT_EDITMSG contains a prefix of the gold')],
  ['an after-cutoff SHA in .git/info/refs', (s) => writeFileSync(join(info(s), 'refs'), `${w.after}\trefs/heads/main\n`), B(`\\.git/info/refs names the commit ${'[0-9a-f]{40}'} from after the cutoff`)],
  ['an after-cutoff SHA in .git/worktrees/*/HEAD', (s) => {
    mkdirSync(join(s.git, 'worktrees', 'next'), { recursive: true });
    writeFileSync(join(s.git, 'worktrees', 'next', 'HEAD'), `${w.after}\n`);
  }, B('\\.git/worktrees/next/HEAD names the commit')],
  ['a symlink inside .git', (s) => symlinkSync(join(w.mirror, 'packed-refs'), join(info(s), 'refs')), B('symlinks in repo/\\.git: info/refs')],
  ['a malformed packed-refs (the audit goes on)', (s) => writeFileSync(join(s.git, 'packed-refs'), 'this is not a ref line\n'), B('packed-refs is malformed: line 1')],
  // Backward: work tree and files
  ['a future file in the work tree', (s) => writeFileSync(join(s.b, 'repo', 'LATER.md'), 'future\n'), B('work tree differs from the cutoff: \\?\\? LATER\\.md')],
  ['a modified file in the work tree', (s) => writeFileSync(join(s.b, 'repo', 'src', 'a.js'), 'a3\n'), B('work tree differs from the cutoff: M src/a\\.js')],
  ['a deleted file in the work tree', (s) => unlinkSync(join(s.b, 'repo', 'README.md')), B('work tree differs from the cutoff: D README\\.md')],
  ['a symlink to grading data in the work tree', (s) => symlinkSync(`../../grading/${BID}.json`, join(s.b, 'repo', 'answer.json')), B('symlinks pointing outside the package: repo/answer\\.json -> \\.\\./\\.\\./grading/')],
  ['report.md as a symlink to grading data', (s) => {
    unlinkSync(join(s.b, 'report.md'));
    symlinkSync(`../grading/${BID}.json`, join(s.b, 'report.md'));
  }, B('report\\.md is a symlink')],
  ['the gold in report.md', (s) => appendFileSync(join(s.b, 'report.md'), `bisected to ${w.gold.slice(0, 8)}\n`), B('report\\.md contains a prefix of the gold')],
  ['the gold in upper case in report.md', (s) => appendFileSync(join(s.b, 'report.md'), `see ${w.gold.slice(0, 9).toUpperCase()}\n`), B('report\\.md contains a prefix of the gold')],
  ['the gold in task.json', (s) => edit(join(s.b, 'task.json'), (t) => t.replace('"backward"', `"backward", "hint": "${w.gold}"`)), B('task\\.json contains a prefix of the gold')],
  // Backward: history parts
  ['an after-cutoff commit in a history part', (s) => appendFileSync(part(s), laterLine()), B('history/00000\\.jsonl lists commits not reachable from the cutoff')],
  ['an extra history part from after the cutoff', (s) => writeFileSync(join(s.b, 'history', '00001.jsonl'), laterLine()), B('history/00001\\.jsonl lists commits not reachable from the cutoff')],
  ['a commit message in the history edited to name the gold', (s) => edit(part(s), (t) => t.replace('"message":"Tidy\\n"', `"message":"Tidy, after ${w.gold.slice(0, 10)}\\n"`)), B("history/00000\\.jsonl differs from the repository's commits at line 1")],
  ['a history part that no longer matches its digest', (s) => edit(part(s), (t) => `${t.split('\n').filter(Boolean).reverse().join('\n')}\n`), B('history/00000\\.jsonl does not match its digest in task\\.json')],
  ['a history line repeated', (s) => appendFileSync(part(s), `${historyLines(s)[1]}\n`), B('history/00000\\.jsonl lists commits a second time')],
  ['a history line dropped', (s) => writeFileSync(part(s), `${historyLines(s).slice(1).join('\n')}\n`), B('history/ lacks 1 commit reachable from the cutoff')],
  ['a history part as a symlink to grading data', (s) => {
    rmSync(part(s));
    symlinkSync(`../../grading/${BID}.json`, join(s.b, 'history', '00000.jsonl'));
  }, B('unexpected entries in history/: 00000\\.jsonl')],
  ['a notes file among the history parts', (s) => writeFileSync(join(s.b, 'history', 'notes.txt'), 'x\n'), B('unexpected entries in history/: notes\\.txt')],
  // Backward without a work tree
  ['a file in repo/ of a package without a work tree', (s) => writeFileSync(join(s.l, 'repo', 'LATER.md'), 'future\n'), new RegExp(`^${LID}: files in repo/ of a package built without a work tree: LATER\\.md`)],
  ['an index in a package without a work tree', (s) => copyFileSync(join(s.git, 'index'), join(s.l, 'repo', '.git', 'index')), new RegExp(`^${LID}: repo/\\.git/index present in a package built without a work tree`)],
  ['grading data that gives a package without a work tree one', (s) => edit(join(s.out, 'grading', `${LID}.json`), (t) => JSON.stringify({ ...JSON.parse(t), work_tree: 'checkout' })), new RegExp(`^${LID}: task\\.json says the work tree is "none", the grading data "checkout"`)],
  ['an extra file in the package', (s) => writeFileSync(join(s.b, 'notes.txt'), 'x\n'), B('unexpected entry notes\\.txt in the package')],
  ['grading data inside the package', (s) => {
    mkdirSync(join(s.b, 'grading'));
    copyFileSync(join(s.out, 'grading', `${BID}.json`), join(s.b, 'grading', `${BID}.json`));
  }, B('grading data inside the package')],
  ['grading data whose gold is not reachable', (s) => edit(join(s.out, 'grading', `${BID}.json`), (t) => JSON.stringify({ ...JSON.parse(t), gold: w.after })), B('gold is not reachable from the cutoff')],
  // Forward
  ['a .git in the tree', (s) => {
    mkdirSync(join(s.f, 'tree', 'src', '.git'), { recursive: true });
    writeFileSync(join(s.f, 'tree', 'src', '.git', 'HEAD'), 'ref: refs/heads/main\n');
  }, F('\\.git in the tree: tree/src/\\.git')],
  ['file content from after the base', (s) => writeFileSync(join(s.f, 'tree', 'src', 'a.js'), 'a3\n'), F('file content differs from the base: src/a\\.js')],
  ['a future file in the tree', (s) => writeFileSync(join(s.f, 'tree', 'LATER.md'), 'future\n'), F('files not in the base: LATER\\.md')],
  ['a base file missing from the tree', (s) => unlinkSync(join(s.f, 'tree', 'README.md')), F('files of the base missing: README\\.md')],
  ['a copy of the grading data in the package', (s) => copyFileSync(join(s.out, 'grading', `${FID}.json`), join(s.f, 'gold.json')), F('unexpected entry gold\\.json in the package')],
  ['a symlink to grading data in the tree', (s) => symlinkSync(`../../grading/${FID}.json`, join(s.f, 'tree', 'gold.json')), F('symlinks pointing outside the package: tree/gold\\.json')],
  ['"Fixed in #N" in the issue text', (s) => appendFileSync(join(s.f, 'issue.md'), 'Fixed in #7.\n'), F('issue\\.md names the fixing pull request #7')],
  ['the gold workflow list in the issue text', (s) => appendFileSync(join(s.f, 'issue.md'), `Expected checks: ${WORKFLOW}\n`), F('issue\\.md lists the gold workflows')],
  ['a URL-encoded link to the fixing pull request', (s) => appendFileSync(join(s.f, 'issue.md'), 'see https://example.com/r?u=https%3A%2F%2Fgithub.com%2Facme%2Fwidget%2Fpull%2F7\n'), F('issue\\.md links the fixing pull request')],
  ['the fix head in context.json', (s) => edit(join(s.f, 'context.json'), (t) => t.replace('"synchronize"', `"synchronize", "head": "${w.after.slice(0, 10)}"`)), F("context\\.json contains a prefix of the fix's head commit")],
  // The set
  ['a grading file without its package', (s) => rmSync(join(s.f), { recursive: true }), /^grading data without its package: grading\/acme_widget__2__0000000b\.json$/],
  ['a half-written set: indexed packages missing', (s) => {
    edit(join(s.out, 'index.json'), (t) => JSON.stringify({ ...JSON.parse(t), complete: false, cases: [...JSON.parse(t).cases, 'acme_widget__4__0000000d', 'acme_widget__5__0000000e', 'acme_widget__6__0000000f'] }));
  }, /^index\.json lists 3 packages that are missing: acme_widget__4__0000000d, acme_widget__5__0000000e, acme_widget__6__0000000f$/],
];

describe('planted leaks', () => {
  it('the clean set has no finding, and the suite plants 61 distinct leaks', async () => {
    expect(await auditPackages(w.pristine)).toEqual({ packages: 3, findings: [] });
    expect(CASES).toHaveLength(61);
    expect(new Set(CASES.map((c) => c[0])).size).toBe(61);
  });

  it.each(CASES)('catches %s', async (_label, plant, finding) => {
    const s = await copySet();
    await plant(s);
    const report = await auditPackages(s.out);
    expect(report.findings).toContainEqual(expect.stringMatching(finding));
  });

  it('a malformed packed-refs does not stop the audit of the other packages', async () => {
    const s = await copySet();
    writeFileSync(join(s.git, 'packed-refs'), 'garbage\n');
    copyFileSync(join(s.out, 'grading', `${FID}.json`), join(s.f, 'gold.json'));
    const report = await auditPackages(s.out);
    expect(report.packages).toBe(3);
    expect(report.findings).toContainEqual(expect.stringMatching(B('packed-refs is malformed')));
    expect(report.findings).toContainEqual(`${FID}: unexpected entry gold.json in the package`);
  });

  it('the half-written flag alone is caught, and a package missing from the index', async () => {
    const s = await copySet();
    edit(join(s.out, 'index.json'), (t) => JSON.stringify({ ...JSON.parse(t), complete: false, cases: [BID] }));
    const report = await auditPackages(s.out);
    expect(report.findings).toEqual(['index.json: the package set is half-written (packaging did not finish)', `packages not listed in index.json: ${FID}, ${LID}`]);
  });
});
