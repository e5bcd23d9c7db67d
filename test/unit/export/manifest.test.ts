import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportManifests } from '../../../src/export/manifest.js';
import type { Blocker } from '../../../src/model/admission.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { canonicalJson } from '../../../src/util/canonical.js';
import { tempDir } from '../../support/make-repo.js';

const hedged: Blocker = { gate: 'always', stage: 'attribute', code: 'hedged', evidence: 'I suspect' };
const probe: Blocker = { gate: 'candidate', stage: 'probe', code: 'probe-missing', evidence: 'no probe verdict for this case' };
const review: Blocker = { gate: 'review', stage: 'review', code: 'review-required', evidence: 'no human accept' };

/** The upstream row that keeps a candidate current: a Backward case row or a Forward link. */
function upstream(store: Store, task: 'backward' | 'forward', repo: string, number: number): void {
  if (task === 'forward') store.sources.upsertLink({ repo, issue: number, pull: number + 100, how: 'timeline', evidence: '' });
  else {
    store.backward.replaceResolution({
      repo, number, status: 'rejected', decision: 'reject', caseId: null, gold: null, goldSubject: null, parent: null, defaultBranch: null,
      cutoff: null, cutoffRule: 'none', cutoffNotes: [], historyWindow: null, tag: null, tagWindow: null, prNumbers: [],
      reportTime: '2024-01-01T00:00:00Z', reportUrl: `https://github.com/${repo}/issues/${number}`,
    }, [], []);
  }
}

function seed(store: Store): void {
  const t = store.admission;
  const row = (task: 'backward' | 'forward', caseId: string, repo: string, number: number, blockers: Blocker[]): void => {
    upstream(store, task, repo, number);
    const record = canonicalJson({ case_id: caseId, task, z: 1, a: 'é' });
    t.replace({ task, itemKey: `${repo}#${number}`, caseId, repo, number, pull: task === 'forward' ? number + 100 : null, record, blockers });
  };
  row('forward', 'b_r__3__cccccccc', 'b/r', 3, []);
  row('backward', 'a_r__2__bbbbbbbb', 'a/r', 2, [review]);
  row('backward', 'a_r__4__eeeeeeee', 'a/r', 4, [probe, review]);
  row('backward', 'a_r__1__aaaaaaaa', 'a/r', 1, [hedged, probe]);
  row('forward', 'a_r__9__dddddddd', 'a/r', 9, [hedged]);
}

describe('exportManifests', () => {
  it('writes records in case-id order, rejections of both tasks in one sorted file, and replaces rows on re-admission', async () => {
    const dir = await tempDir();
    const store = openStore(':memory:');
    seed(store);
    seed(store);
    expect(store.admission.count()).toBe(5);
    exportManifests(store, { out: dir });
    expect(readFileSync(join(dir, 'backward.jsonl'), 'utf8')).toBe('{"a":"é","blockers":[],"case_id":"a_r__2__bbbbbbbb","task":"backward","tier":"admitted","z":1}\n');
    expect(readFileSync(join(dir, 'forward.jsonl'), 'utf8')).toBe('{"a":"é","blockers":[],"case_id":"b_r__3__cccccccc","task":"forward","tier":"admitted","z":1}\n');
    expect(readFileSync(join(dir, 'candidates.jsonl'), 'utf8')).toBe(
      '{"a":"é","blockers":[{"code":"probe-missing","evidence":"no probe verdict for this case","gate":"candidate","stage":"probe"}],"case_id":"a_r__4__eeeeeeee","task":"backward","tier":"candidate","z":1}\n',
    );
    const rejections = readFileSync(join(dir, 'rejections.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { case_id: string; pull?: number; tier: string });
    expect(rejections.map((r) => [r.case_id, r.pull, r.tier])).toEqual([['a_r__1__aaaaaaaa', undefined, 'rejected'], ['a_r__9__dddddddd', 109, 'rejected']]);
    const meta = JSON.parse(readFileSync(join(dir, 'backward.meta.json'), 'utf8')) as { counts: unknown };
    expect(meta.counts).toEqual({ records: 1, by_repo: { 'a/r': 1 }, by_reason: { hedged: 1, 'probe-missing': 1 }, by_task: { backward: 1 }, by_tier: { admitted: 1 } });
    const cmeta = JSON.parse(readFileSync(join(dir, 'candidates.meta.json'), 'utf8')) as { counts: unknown };
    expect(cmeta.counts).toEqual({ records: 1, by_repo: { 'a/r': 1 }, by_reason: { 'probe-missing': 1 }, by_task: { backward: 1 }, by_tier: { candidate: 1 } });
    store.close();
  });

  it('puts candidates into the manifests with --include-candidates, and --require-review turns the unaccepted into candidates', async () => {
    const dir = await tempDir();
    const store = openStore(':memory:');
    seed(store);
    exportManifests(store, { out: dir, includeCandidates: true });
    const tiers = (file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { case_id: string; tier: string }))
      .map((r) => [r.case_id, r.tier]);
    expect(tiers('backward.jsonl')).toEqual([['a_r__2__bbbbbbbb', 'admitted'], ['a_r__4__eeeeeeee', 'candidate']]);
    expect(tiers('candidates.jsonl')).toEqual([['a_r__4__eeeeeeee', 'candidate']]);
    // Replacing a manifest that holds records with an empty one needs force.
    expect(() => exportManifests(store, { out: dir, requireReview: true })).toThrow(/backward\.jsonl: holds records and this export has none/);
    expect(tiers('backward.jsonl')).toHaveLength(2);
    exportManifests(store, { out: dir, requireReview: true, force: true });
    expect(tiers('backward.jsonl')).toEqual([]);
    expect(tiers('candidates.jsonl')).toEqual([['a_r__2__bbbbbbbb', 'candidate'], ['a_r__4__eeeeeeee', 'candidate']]);
    expect(tiers('forward.jsonl')).toEqual([['b_r__3__cccccccc', 'admitted']]);
    store.close();
  });

  it('leaves out the rows of candidates that vanished upstream', async () => {
    const dir = await tempDir();
    const store = openStore(':memory:');
    seed(store);
    store.db.prepare("DELETE FROM links WHERE repo = 'b/r'").run();
    store.db.prepare("DELETE FROM backward_cases WHERE repo = 'a/r' AND number = 1").run();
    const summary = exportManifests(store, { out: dir });
    expect(summary.files.map((f) => [f.name, f.records])).toEqual([['backward.jsonl', 1], ['forward.jsonl', 0], ['candidates.jsonl', 1], ['rejections.jsonl', 1]]);
    store.close();
  });

  it('leaves the previous manifests untouched and no temporary file behind when a row cannot be read', async () => {
    const dir = await tempDir();
    const store = openStore(':memory:');
    seed(store);
    exportManifests(store, { out: dir });
    const before = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    store.db.prepare("UPDATE admissions SET blockers = 'not json' WHERE case_id = 'b_r__3__cccccccc'").run();
    expect(() => exportManifests(store, { out: dir })).toThrow(SyntaxError);
    expect(Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]))).toEqual(before);
    store.close();
  });

  it('writes records of every size byte for byte, across the write buffer and larger than it, with the digest of the file', async () => {
    const dir = await tempDir();
    const store = openStore(':memory:');
    const t = store.admission;
    // Multi-byte text in records larger and smaller than the 1 MiB buffer, in an order that crosses it.
    const sizes = [10, 400_000, 5, 700_000, 1_500_000, 3, 350_000];
    const expected: string[] = [];
    sizes.forEach((size, i) => {
      const caseId = `a_r__${i + 1}__${String(i).padStart(8, '0')}`;
      upstream(store, 'forward', 'a/r', i + 1);
      const record = canonicalJson({ case_id: caseId, task: 'forward', text: 'é€😀x'.repeat(size / 5 + 1) });
      t.replace({ task: 'forward', itemKey: `a/r#${i + 1}`, caseId, repo: 'a/r', number: i + 1, pull: i + 101, record, blockers: [] });
      expected.push(canonicalJson({ ...(JSON.parse(record) as object), tier: 'admitted', blockers: [] }));
    });
    const summary = exportManifests(store, { out: dir, task: 'forward' });
    const bytes = readFileSync(join(dir, 'forward.jsonl'));
    expect(bytes.toString('utf8')).toBe(`${expected.join('\n')}\n`);
    expect(summary.files.find((f) => f.name === 'forward.jsonl')!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    store.close();
  });

  it('names the output path when it cannot be used', async () => {
    const dir = await tempDir();
    const store = openStore(':memory:');
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => exportManifests(store, { out: join(dir, 'file') })).toThrow(`--out ${join(dir, 'file')}: exists and is not a directory`);
    mkdirSync(join(dir, 'm', 'backward.jsonl'), { recursive: true });
    expect(() => exportManifests(store, { out: join(dir, 'm') })).toThrow(/^--out .*\/m: cannot write the manifests \(EISDIR\)$/);
    expect(readdirSync(join(dir, 'm'))).toEqual(['backward.jsonl']);
    store.close();
  });
});
