import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerInspectBackward } from '../../../src/commands/inspect-backward.js';
import type { CliContext } from '../../../src/commands/types.js';
import { UsageError } from '../../../src/errors.js';
import { makeRepo, tempDir } from '../../support/make-repo.js';

async function run(args: string[], cwd: string): Promise<{ out: string; err: string; code: number }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  let code = 0;
  const ctx: CliContext = {
    io: { stdout, stderr, env: {}, cwd, isTTY: false },
    signal: new AbortController().signal,
    setExitCode: (c) => void (code = c),
  };
  const program = new Command().exitOverride();
  registerInspectBackward(program, ctx);
  await program.parseAsync(['node', 'r2v', ...args]);
  return { out, err, code };
}

const SYMPTOM =
  'Since 2.4.0, `widget render nested.svg` fails with `TypeError: Cannot read properties of undefined (reading "points")` ' +
  'in src/flatten.js; 2.3.0 rendered the same file fine. Reproduce with any SVG that nests two groups.';

function importLine(number: number, body: string, comments: string[] = []): string {
  return JSON.stringify({
    repo: 'acme/widget',
    issue: {
      number,
      title: 'render crashes on nested groups',
      body,
      user: { login: 'reporter' },
      created_at: '2024-01-01T10:00:00Z',
      html_url: `https://github.com/acme/widget/issues/${number}`,
    },
    comments: comments.map((c, i) => ({ id: number * 10 + i, user: { login: 'dev' }, created_at: `2024-01-0${i + 2}T00:00:00Z`, body: c })),
  });
}

describe('r2v inspect backward', () => {
  it('resolves, validates and sanitizes against --git-dir, and reports bad lines with exit 3', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const gold = await repo.commit('Rework the path flattener');
    const tip = await repo.commit('Tidy docs');
    const dir = await tempDir();
    const file = join(dir, 'threads.jsonl');
    await writeFile(
      file,
      [
        importLine(1, `${SYMPTOM}\n\nThe build id is ${gold.slice(0, 8)}.`, [`git bisect says ${gold.slice(0, 10)} is the first bad commit.`]),
        '{"repo": "acme/widget", "issue": {"number": "x"}}',
        '{broken',
        importLine(2, `${SYMPTOM} Could it be ${gold.slice(0, 8)}?`),
      ].join('\n'),
    );
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    expect(r.code).toBe(3);
    expect(r.err.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^threads\.jsonl:2: thread import: issue\.number: /),
      expect.stringMatching(/^threads\.jsonl:3: malformed JSON/),
      'threads.jsonl: 2 lines could not be inspected',
    ]);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines).toHaveLength(2);
    const [one, two] = lines as [Record<string, any>, Record<string, any>];
    expect(Object.keys(one).sort()).toEqual(['attributions', 'cutoff', 'decision', 'evidence', 'gold', 'leak_check', 'number', 'reasons', 'repo', 'report']);
    expect(one.evidence).toEqual([]);
    expect(one).toMatchObject({ repo: 'acme/widget', number: 1, decision: 'candidate', reasons: [], gold: { sha: gold, status: 'ok' }, cutoff: tip });
    expect(one.attributions).toEqual([
      { text: gold.slice(0, 10), kind: expect.any(String), where: 'comment 1', quote: expect.stringContaining('is the first bad commit'), hedged: false },
    ]);
    expect(one.report.text).toBe(`render crashes on nested groups\n\n${SYMPTOM}\n\nThe build id is .`);
    expect(one.report.deletions).toEqual([{ start: one.report.text.length - 1, end: one.report.text.length + 7, detector: 'sha' }]);
    expect(one.leak_check).toEqual({ ok: true, findings: [] });
    expect(two.decision).toBe('reject');
    expect(two.reasons).toEqual(['no-attribution']);
    expect(two.gold).toEqual({ sha: null, status: 'unresolved' });
  });

  it('refuses as range-only a culprit whose named last good commit is commits before it, not its parent', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const good = await repo.commit('Add the loader');
    await repo.commit('Speed up parsing');
    const parent = await repo.commit('Cache parsed groups');
    const gold = await repo.commit('Rework the path flattener');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    const body = (g: string) => `${SYMPTOM}\n\nAs of commit ${gold.slice(0, 8)} nested.svg no longer renders. The last build I have that renders it is ${g.slice(0, 8)}.`;
    await writeFile(join(dir, 'threads.jsonl'), [importLine(7, body(good)), importLine(8, body(parent))].join('\n') + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const [far, next] = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>) as [Record<string, any>, Record<string, any>];
    expect(far).toMatchObject({ decision: 'reject', reasons: ['range-only'] });
    expect(far.evidence.join('\n')).toMatch(/is 3 commits before/);
    expect(next).toMatchObject({ decision: 'candidate', reasons: [], gold: { sha: gold, status: 'ok' } });
  });

  it('refuses a blame that the same post contradicts: the commit it calls good already holds the culprit', async () => {
    const repo = await makeRepo();
    const parent = await repo.commit('Initial import');
    const gold = await repo.commit('Inline the path helpers');
    const after = await repo.commit('Speed up parsing');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    const body = (g: string) => `${SYMPTOM}\n\nCommit ${gold.slice(0, 8)} introduces a change which breaks the build.\n\nBuilding is fine for me on commit \`${g.slice(0, 8)}\``;
    await writeFile(join(dir, 'threads.jsonl'), [importLine(9, body(after)), importLine(10, body(parent))].join('\n') + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const [contradicted, parentGood] = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>) as [Record<string, any>, Record<string, any>];
    expect(contradicted).toMatchObject({ decision: 'reject', reasons: ['symptom-mismatch'] });
    expect(contradicted.evidence.join('\n')).toMatch(/already contains/);
    // The parent called good is the other end of a one-step range: the blame stands.
    expect(parentGood).toMatchObject({ decision: 'candidate', reasons: [], gold: { sha: gold, status: 'ok' } });
  });

  it("deletes the culprit's parent as well when the thread names it by six hex characters", async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const parent = await repo.commit('Add the windowed mode');
    const gold = await repo.commit('Share the frame buffer');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    await writeFile(join(dir, 'threads.jsonl'), importLine(11, `${SYMPTOM}\n\nBisecting says the first bad commit is ${gold.slice(0, 6)}\n\nIt still works in ${parent.slice(0, 6)}, the commit before.`) + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const out = JSON.parse(r.out.trim()) as Record<string, any>;
    expect(out).toMatchObject({ decision: 'candidate', gold: { sha: gold, status: 'ok' } });
    expect(out.report.text).not.toContain(gold.slice(0, 6));
    expect(out.report.text).not.toContain(parent.slice(0, 6));
    expect(out.report.text).toContain(SYMPTOM);
  });

  it('deletes the number of the pull request whose merge commit brought the culprit in, read from git alone', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    await repo.checkout('flatten', { create: true });
    const gold = await repo.commit('Rework the path flattener', { files: { 'flatten.js': 'rework\n' } });
    await repo.checkout('main');
    await repo.merge('flatten', { ff: 'never', message: 'Merge pull request #41 from dev/flatten' });
    await repo.commit('Tidy docs', { files: { 'docs.md': 'tidy\n' } });
    const dir = await tempDir();
    await writeFile(join(dir, 'threads.jsonl'), importLine(12, `${SYMPTOM}\n\ngit bisect says ${gold.slice(0, 10)} is the first bad commit. Nobody tried #41 with nested groups, it seems.`) + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const out = JSON.parse(r.out.trim()) as Record<string, any>;
    expect(out).toMatchObject({ decision: 'candidate', gold: { sha: gold, status: 'ok' } });
    expect(out.report.text).not.toContain('#41');
    expect(out.report.text).toContain(SYMPTOM);
  });

  it('deletes the Subversion revision of a culprit in a history converted by git svn', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import\n\ngit-svn-id: http://svn.example.org/widget/trunk@5244 0b1d2c3e-0000-4000-8000-000000000001');
    const gold = await repo.commit('Rework the path flattener\n\ngit-svn-id: http://svn.example.org/widget/trunk@5245 0b1d2c3e-0000-4000-8000-000000000001', { files: { 'flatten.js': 'rework\n' } });
    await repo.commit('Tidy docs', { files: { 'docs.md': 'tidy\n' } });
    const dir = await tempDir();
    await writeFile(join(dir, 'threads.jsonl'), importLine(13, `${SYMPTOM}\n\nWorked in r5244; r5245 ([link](https://github.com/acme/widget/commit/${gold})) broke it.\n\nRevision 5245 reworked the flattener.`) + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const out = JSON.parse(r.out.trim()) as Record<string, any>;
    expect(out).toMatchObject({ gold: { sha: gold, status: 'ok' } });
    expect(out.report.text).not.toMatch(/5245/);
    expect(out.report.text).toContain(SYMPTOM);
  });

  it('refuses a culprit that is already in the release the report says worked', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const gold = await repo.commit('Rework the path flattener');
    await repo.commit('Speed up parsing');
    await repo.tag('v2.3.0');
    const later = await repo.commit('Cache parsed groups');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    const body = (c: string) => `Saving the layout worked fine in \`2.3.0\`, but 2.4.0 refuses it.\n\nIt appears commit ${c.slice(0, 10)} is responsible: with it reverted the layout saves again.`;
    // "… doesn't work in 2.3.0" names the broken release: no release said to work.
    const broken = `Saving the layout doesn't work in \`2.3.0\` any more.\n\nIt appears commit ${gold.slice(0, 10)} is responsible: with it reverted the layout saves again.`;
    await writeFile(join(dir, 'threads.jsonl'), [importLine(9, body(gold)), importLine(10, body(later)), importLine(11, broken)].join('\n') + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const [inside, after, negated] = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>) as [Record<string, any>, Record<string, any>, Record<string, any>];
    expect(negated).toMatchObject({ decision: 'candidate', reasons: [], gold: { sha: gold, status: 'ok' } });
    expect(inside).toMatchObject({ decision: 'reject', reasons: ['symptom-mismatch'] });
    expect(inside.evidence.join('\n')).toMatch(/is already in v2\.3\.0, the release the report says worked/);
    expect(after).toMatchObject({ decision: 'candidate', reasons: [], gold: { sha: later, status: 'ok' } });
  });

  it('refuses "broken by #104 and X" when that pull request did not bring X in, and keeps it when X is that pull request\'s own commit', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const alone = await repo.commit('Rework the path flattener');
    const squashed = await repo.commit('Cache parsed groups (#104)');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    const blame = (c: string) => `${SYMPTOM}\n\nRendering was broken by #104 and ${c.slice(0, 12)}.`;
    await writeFile(join(dir, 'threads.jsonl'), [importLine(21, blame(alone)), importLine(22, blame(squashed))].join('\n') + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const [two, one] = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>) as [Record<string, any>, Record<string, any>];
    expect(two).toMatchObject({ decision: 'reject', reasons: ['competing'] });
    expect(two.evidence.join('\n')).toMatch(/two changes blamed together: #104/);
    expect(one).toMatchObject({ decision: 'candidate', reasons: [], gold: { sha: squashed, status: 'ok' } });
  });

  it('resolves a commit URL attribution of the same repository to its commit and deletes the URL', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const gold = await repo.commit('Rework the path flattener');
    const tip = await repo.commit('Tidy docs');
    const dir = await tempDir();
    const url = `https://github.com/acme/widget/commit/${gold}`;
    await writeFile(join(dir, 'threads.jsonl'), importLine(3, SYMPTOM, [`Bisected to ${url}`]) + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    expect(r).toMatchObject({ code: 0, err: '' });
    const line = JSON.parse(r.out) as Record<string, any>;
    expect(line).toMatchObject({ decision: 'candidate', reasons: [], gold: { sha: gold, status: 'ok' }, cutoff: tip });
    expect(line.attributions).toEqual([{ text: url, kind: 'commit-url', where: 'comment 1', quote: `Bisected to ${url}`, hedged: false }]);
    expect(line.report.text).not.toContain(gold.slice(0, 7));
  });

  it('--alias: a commit URL under a former name resolves and is deleted; without it the URL is another repository', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const gold = await repo.commit('Rework the path flattener');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    const url = `https://github.com/oldorg/gadget/commit/${gold}`;
    await writeFile(join(dir, 'threads.jsonl'), importLine(5, `${SYMPTOM} Seen since ${url} landed, I think.`, [`Bisected, and the culprit is ${url}`]) + '\n');
    const plain = JSON.parse((await run(['inspect', 'backward', '--threads', 'threads.jsonl'], dir)).out) as Record<string, any>;
    expect(plain).toMatchObject({ decision: 'reject', reasons: expect.arrayContaining(['cross-repository']) });
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir, '--alias', 'oldorg/gadget', '--explain'], dir);
    expect(r).toMatchObject({ code: 0, err: '' });
    const line = JSON.parse(r.out) as Record<string, any>;
    expect(line).toMatchObject({ decision: 'candidate', gold: { sha: gold, status: 'ok' } });
    expect(line.report.text).not.toContain('oldorg/gadget/commit');
    expect(line.candidates).toEqual(
      expect.arrayContaining([expect.objectContaining({ where: 'comment 1', ref: url, attribution: true, evidence: expect.arrayContaining([expect.stringMatching(/^pattern \+4/)]) })]),
    );
    const bad = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--alias', 'not a name'], dir).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UsageError);
  });

  it('a commit URL under another owner and name whose full SHA is a commit here is a former name, learnt from the repository', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    const gold = await repo.commit('Rework the path flattener');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    const url = `https://github.com/legacy-org/old-engine/commit/${gold}`;
    const foreign = `https://github.com/legacy-org/old-engine/commit/${'cd'.repeat(20)}`;
    await writeFile(
      join(dir, 'threads.jsonl'),
      [importLine(6, SYMPTOM, [`Bisected, the culprit is ${url}`]), importLine(7, SYMPTOM, [`Bisected, the culprit is ${foreign}`])].join('\n') + '\n',
    );
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const [known, unknown] = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(known).toMatchObject({ decision: 'candidate', gold: { sha: gold, status: 'ok' } });
    expect(known!.report.text).not.toContain('old-engine/commit');
    // A SHA this repository does not hold stays another project's.
    expect(unknown).toMatchObject({ decision: 'reject', reasons: expect.arrayContaining(['cross-repository']) });
  });

  it('names the structural check that failed, for a culprit only on a pull-request branch', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import');
    await repo.checkout('pr', { create: true });
    const culprit = await repo.commit('Rework the path flattener');
    await repo.updateRef('refs/pull/4/head', culprit);
    await repo.checkout('main');
    await repo.commit('Tidy docs');
    const dir = await tempDir();
    await writeFile(join(dir, 'threads.jsonl'), importLine(4, SYMPTOM, [`git bisect says ${culprit.slice(0, 10)} is the first bad commit.`]) + '\n');
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl', '--git-dir', repo.dir], dir);
    const line = JSON.parse(r.out) as Record<string, any>;
    expect(line).toMatchObject({ decision: 'reject', reasons: ['structural-check-failed'], gold: { sha: culprit, status: 'ok' } });
    expect(line.evidence).toEqual(expect.arrayContaining([expect.stringMatching(/^structural-check-failed: on-default-branch: /)]));
  });

  it('names why gold did not resolve: not a commit, missing, or another project', async () => {
    const repo = await makeRepo();
    await repo.commit('Initial import', { files: { 'src/flatten.js': 'module.exports = 1;\n' } });
    const tree = await repo.git(['rev-parse', 'HEAD^{tree}']);
    const dir = await tempDir();
    const foreign = `https://github.com/other/engine/commit/${'ab'.repeat(20)}`;
    await writeFile(
      join(dir, 't.jsonl'),
      [
        importLine(11, SYMPTOM, [`Bisected it to ${tree.slice(0, 10)}.`]),
        importLine(12, SYMPTOM, ['Bisected it to 1234567abc.']),
        importLine(13, SYMPTOM, [`Bisected it to ${foreign}`]),
      ].join('\n') + '\n',
    );
    const withGit = await run(['inspect', 'backward', '--threads', 't.jsonl', '--git-dir', repo.dir], dir);
    expect(withGit).toMatchObject({ code: 0, err: '' });
    const lines = withGit.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => [l.number, l.decision, l.reasons, l.gold])).toEqual([
      [11, 'reject', ['not-commit'], { sha: null, status: 'not-commit' }],
      [12, 'reject', ['missing-sha'], { sha: null, status: 'missing' }],
      [13, 'reject', ['cross-repository'], { sha: null, status: 'cross-repository' }],
    ]);
    // Without a repository only the text rules decide: the foreign commit is still rejected, gold unresolved.
    const textOnly = await run(['inspect', 'backward', '--threads', 't.jsonl'], dir);
    const plain = textOnly.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(plain.map((l) => [l.number, l.decision, l.gold.status])).toEqual([
      [11, 'candidate', 'unresolved'],
      [12, 'candidate', 'unresolved'],
      [13, 'reject', 'unresolved'],
    ]);
  });

  it('makes the text-level decision without --git-dir and leaves gold unresolved', async () => {
    const dir = await tempDir();
    const sha = '3f9a2c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39';
    await writeFile(join(dir, 't.jsonl'), `${importLine(7, SYMPTOM, [`Bisected it to ${sha.slice(0, 9)}.`])}\n`);
    const r = await run(['inspect', 'backward', '--threads', 't.jsonl'], dir);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const line = JSON.parse(r.out) as Record<string, any>;
    expect(line).toMatchObject({ number: 7, decision: 'candidate', gold: { sha: null, status: 'unresolved' }, cutoff: null });
    expect(line.report.text).toBe(`render crashes on nested groups\n\n${SYMPTOM}`);
  });

  it('rejects a missing threads file and a directory that is not a repository', async () => {
    const dir = await tempDir();
    await expect(run(['inspect', 'backward', '--threads', 'nope.jsonl'], dir)).rejects.toThrow(new UsageError('--threads nope.jsonl: file not found'));
    await writeFile(join(dir, 't.jsonl'), '');
    await expect(run(['inspect', 'backward', '--threads', 't.jsonl', '--git-dir', dir], dir)).rejects.toThrow(
      new UsageError(`--git-dir ${dir}: not a git repository`),
    );
  });
  it('screens a file with megabytes of hex noise, binary bytes and a plain thread, each to one line, without an error', async () => {
    const dir = await tempDir();
    const file = join(dir, 'threads.jsonl');
    const noise = Array.from({ length: 60_000 }, (_, i) => `${(i * 2654435761 % 0xfffffff).toString(16).padStart(7, 'c')}f2 caused`).join(' ');
    const binary = String.fromCharCode(...Array.from({ length: 3000 }, (_, i) => (i * 53) % 256));
    await writeFile(
      file,
      [
        importLine(1, SYMPTOM, [noise]),
        importLine(2, `${SYMPTOM}\n${binary}`, ['Bisected to 3e9a1f2c, the first bad commit.']),
        importLine(3, SYMPTOM, ['Same on 2.4.1.']),
      ].join('\n'),
    );
    expect(noise.length).toBeGreaterThan(1_000_000);
    const r = await run(['inspect', 'backward', '--threads', 'threads.jsonl'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => l.number)).toEqual([1, 2, 3]);
    // Thousands of blamed hashes are no single culprit; the binary bytes do not hide the bisect line; no attribution in the third.
    expect(lines[0]!.decision).not.toBe('candidate');
    expect(lines[1]!.attributions.map((a: { text: string }) => a.text)).toEqual(['3e9a1f2c']);
    expect(lines[2]).toMatchObject({ decision: 'reject', reasons: ['no-attribution'] });
  });
});
