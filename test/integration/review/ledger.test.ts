import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewStanding } from '../../../src/review/status.js';
import { storeThread } from '../backward/pipeline-fixture.js';
import { jsonLines } from '../../support/cli.js';
import { buildWorld, ledgerRows, reviewThreadComment, runPipeline, SYMPTOM, type World } from './world.js';

type Rec = Record<string, any>;
const keys = (stdout: string): string[] => jsonLines(stdout).map((r) => r.case_key as string);

async function exported(world: World, args: readonly string[] = []): Promise<Rec[]> {
  const r = await world.cli(['review', 'export', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return jsonLines(r.stdout);
}

const REVIEW_KEYS = ['acme/widget#2', 'acme/widgets#5<-105', 'acme/widgets#5<-106', 'acme/widgets#7<-107'];

describe('r2v review export and import on cases built by the real stages', () => {
  it('exports the cases needing a decision, imports decisions line by line, survives re-runs, and a changed case drops back to pending', async () => {
    const world = await buildWorld();
    await runPipeline(world);

    // Export: the rules' review cases, sorted, with their evidence and links; never a rejected case.
    const pending = await exported(world);
    expect(pending.map((r) => r.case_key)).toEqual(REVIEW_KEYS);
    const b2 = pending[0]!;
    expect(b2).toMatchObject({
      task: 'backward',
      repo: 'acme/widget',
      number: 2,
      status: 'pending',
      decisions: [],
      gold: world.gold,
      screen: { decision: 'review', reasons: [{ stage: 'resolve', code: 'symptom-mismatch', evidence: 'Looks like #12 again.' }] },
      links: { issue: 'https://github.com/acme/widget/issues/2', gold_commit: `https://github.com/acme/widget/commit/${world.gold}` },
    });
    expect(b2.case_id).toMatch(/^acme_widget__2__[0-9a-f]{8}$/);
    expect(b2.input_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b2.quotes).toEqual([
      expect.objectContaining({ text: `I bisected it to ${world.gold.slice(0, 9)}.`, ref: world.gold.slice(0, 9), where: 'comment 1', author: 'dev0' }),
    ]);
    expect(reviewThreadComment(world.gold)).toContain(b2.quotes[0].text);
    expect(b2.report).toContain('TypeError: Cannot read properties of undefined');
    expect(b2.report).not.toContain(world.gold.slice(0, 7));
    const f107 = pending[3]!;
    expect(f107).toMatchObject({
      task: 'forward',
      number: 7,
      pull: 107,
      changed_paths: ['src/app/styles.css'],
      gold: ['.github/workflows/lint.yml'],
      links: { issue: 'https://github.com/acme/widgets/issues/7', pull: 'https://github.com/acme/widgets/pull/107' },
    });
    expect(f107.screen.flags.map((f: Rec) => f.code)).toEqual(['scope-ambiguous']);
    expect(f107.issue_text).toContain('Body margin should be 1px.');

    const withCandidates = await exported(world, ['--include-candidates']);
    expect(withCandidates.map((r) => r.case_key)).toEqual([
      'acme/widget#1', 'acme/widget#2',
      'acme/widgets#1<-101', 'acme/widgets#2<-102', 'acme/widgets#3<-103', 'acme/widgets#5<-105', 'acme/widgets#5<-106', 'acme/widgets#7<-107', 'acme/widgets#13<-113',
    ]);
    expect((await exported(world, ['--task', 'forward'])).map((r) => r.case_key)).toEqual(REVIEW_KEYS.slice(1));
    expect((await exported(world, ['--repo', 'acme/widget'])).map((r) => r.case_key)).toEqual(['acme/widget#2']);

    // --out writes the same bytes as stdout; exporting twice gives identical bytes.
    const stdout = (await world.cli(['review', 'export', '--status', 'all'])).stdout;
    const out = await world.cli(['review', 'export', '--status', 'all', '--out', 'review.jsonl']);
    expect(out).toEqual({ code: 0, stdout: '', stderr: 'r2v: 4 cases written to review.jsonl\n' });
    expect(readFileSync(join(world.dir, 'review.jsonl'), 'utf8')).toBe(stdout);

    // Import: good lines are appended, each bad line is reported as FILE:LINE and the exit code is 3.
    const caseId = (key: string): string => withCandidates.find((r) => r.case_key === key)!.case_id as string;
    const caseIdOf104 = (): string => {
      const store = world.open();
      try {
        return store.forward.cases().find((c) => c.pull === 104)!.case_id;
      } finally {
        store.close();
      }
    };
    const decisions = [
      JSON.stringify({ case_key: 'acme/widget#2', reviewer: 'alice', decision: 'accept', reason: 'the bisect is about this crash', input_digest: b2.input_digest }),
      JSON.stringify({ case_id: caseId('acme/widgets#7<-107'), reviewer: 'alice', decision: 'accept', reason: 'only lint runs' }),
      JSON.stringify({ case_id: caseId('acme/widgets#7<-107'), reviewer: 'bob', decision: 'reject', reason: 'a test file would change too' }),
      '{"case_key": "acme/widget#2", "reviewer": ',
      JSON.stringify({ case_id: 'acme_widget__9__00000000', reviewer: 'alice', decision: 'accept', reason: '' }),
      JSON.stringify({ case_key: 'acme/widgets#4<-104', reviewer: 'alice', decision: 'accept', reason: 'looks fine' }),
      JSON.stringify({ case_key: 'acme/widgets#5<-105', reviewer: 'alice', decision: 'accept', reason: 'x', input_digest: 'f'.repeat(64) }),
      '',
      JSON.stringify({ case_key: 'acme/widgets#5<-106', reviewer: 'alice', decision: 'approve', reason: 'x' }),
    ];
    writeFileSync(join(world.dir, 'decisions.jsonl'), `${decisions.join('\n')}\n`);
    const imp = await world.cli(['review', 'import', 'decisions.jsonl']);
    expect(imp.code).toBe(3);
    expect(JSON.parse(imp.stdout)).toEqual({ imported: 3, skipped: 0, bad: 5 });
    const errors = imp.stderr.trimEnd().split('\n');
    expect(errors).toHaveLength(5);
    expect(errors[0]).toMatch(/^decisions\.jsonl:4: malformed JSON \(/);
    expect(errors.slice(1)).toEqual([
      'decisions.jsonl:5: case_id acme_widget__9__00000000: unknown case',
      'decisions.jsonl:6: case_key acme/widgets#4<-104: the rules rejected this case (path-limit); a review decision cannot admit it',
      expect.stringMatching(/^decisions\.jsonl:7: case_key acme\/widgets#5<-105: stale decision: input_digest ffffffffffff… was reviewed, the case is now [0-9a-f]{12}… \(its inputs changed; export it again\)$/),
      'decisions.jsonl:9: decision: Invalid option: expected one of "accept"|"reject"|"uncertain"',
    ]);
    const afterImport = ledgerRows(world);
    expect(afterImport).toHaveLength(3);

    // Re-importing the same file appends nothing.
    const again = await world.cli(['review', 'import', 'decisions.jsonl']);
    expect(again.code).toBe(3);
    expect(JSON.parse(again.stdout)).toEqual({ imported: 0, skipped: 3, bad: 5 });
    expect(ledgerRows(world)).toEqual(afterImport);

    // Standing: accepted, disagreement, still pending.
    expect((await exported(world, ['--status', 'accepted'])).map((r) => r.case_key)).toEqual(['acme/widget#2']);
    expect((await exported(world, ['--status', 'needs-adjudication'])).map((r) => r.case_key)).toEqual(['acme/widgets#7<-107']);
    expect((await exported(world)).map((r) => r.case_key)).toEqual(['acme/widgets#5<-105', 'acme/widgets#5<-106']);
    const accepted = (await exported(world, ['--status', 'accepted']))[0]!;
    expect(accepted.decisions).toEqual([
      expect.objectContaining({ reviewer: 'alice', decision: 'accept', source: 'human', input_digest: b2.input_digest, current: true }),
    ]);

    // show: one case by id or key, reviewable or not.
    const shown = await world.cli(['review', 'show', b2.case_id]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(accepted);
    const rejectedShown = await world.cli(['review', 'show', 'acme/widgets#4<-104']);
    expect(JSON.parse(rejectedShown.stdout)).toEqual({
      case_key: 'acme/widgets#4<-104', case_id: caseIdOf104(), reviewable: false, why: 'rejected: path-limit', decisions: [],
    });

    // A forced re-run of every stage keeps the ledger, and re-exports are byte-identical.
    const allBefore = (await world.cli(['review', 'export', '--status', 'all'])).stdout;
    await runPipeline(world, true);
    expect(ledgerRows(world)).toEqual(afterImport);
    expect((await world.cli(['review', 'export', '--status', 'all'])).stdout).toBe(allBefore);

    // The thread of #2 changes (its report gains a sentence): new digest, back to pending.
    const store = world.open();
    storeThread(store, 2, 'render crashes on nested groups again', `${SYMPTOM}\nAlso seen on Windows.`, [reviewThreadComment(world.gold)], 10);
    store.close();
    await runPipeline(world);
    const changed = (await exported(world)).find((r) => r.case_key === 'acme/widget#2')!;
    expect(changed.status).toBe('pending');
    expect(changed.report).toContain('Also seen on Windows.');
    expect(changed.input_digest).not.toBe(b2.input_digest);
    expect(changed.decisions).toEqual([expect.objectContaining({ reviewer: 'alice', decision: 'accept', input_digest: b2.input_digest, current: false })]);
    const stale = await world.cli(['review', 'import', 'decisions.jsonl']);
    expect(stale.stderr).toMatch(/^decisions\.jsonl:1: case_key acme\/widget#2: stale decision: /m);
    expect(ledgerRows(world)).toEqual(afterImport);

    const s = world.open();
    try {
      expect(reviewStanding(s.review.entries('acme/widget#2'), changed.input_digest).status).toBe('pending');
      expect(reviewStanding(s.review.entries('acme/widget#2'), b2.input_digest).status).toBe('accepted');
    } finally {
      s.close();
    }
  });

  it('reports bad command-line input in one line with exit code 2', async () => {
    const world = await buildWorld({ forward: false });
    expect(await world.cli(['review', 'export', '--status', 'done'])).toEqual({
      code: 2, stdout: '', stderr: 'r2v: --status done: must be one of pending, needs-adjudication, accepted, rejected, all\n',
    });
    expect(await world.cli(['review', 'export', '--task', 'pairs'])).toEqual({ code: 2, stdout: '', stderr: 'r2v: --task pairs: must be backward or forward\n' });
    expect(await world.cli(['review', 'export', '--repo', 'acme/none'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^r2v: --repo acme\/none: unknown repository/) });
    const missing = await world.cli(['review', 'import', 'nope.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^r2v: .*nope\.jsonl: cannot read: ENOENT\n$/);
    expect(await world.cli(['review', 'show', 'acme/widget#99'])).toEqual({ code: 2, stdout: '', stderr: 'r2v: acme/widget#99: unknown case (expected a case key or case id)\n' });
    expect(ledgerRows(world)).toEqual([]);
  });
});
