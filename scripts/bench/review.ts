/**
 * Review ledger throughput on synthetic Backward review cases stored through the stage tables:
 * the review export (cases per second), a first import of one decision per case, and a re-import
 * where every line is a duplicate. The duplicate check is an indexed lookup by case key; the naive
 * way reads the whole ledger for every line. Prints lines per second for both and the ratio.
 */
import { importDecisions } from '../../src/review/import.js';
import { reviewExportLines } from '../../src/review/review-export.js';
import { openStore } from '../../src/store/db.js';
import type { ReviewEntry } from '../../src/store/tables/review.js';
import { sha256 } from '../../src/util/canonical.js';
import type { JsonlLine } from '../../src/util/jsonl.js';

const CASES = 5000;
const NAIVE_SAMPLE = 300;
const REPO = 'bench/widget';

const store = openStore(':memory:');
const sources = store.sources;
const tables = store.backward;
const body = 'Rendering nested groups fails with `TypeError: Cannot read properties of undefined` in src/flatten.js since 2.4.0.';
store.transaction(() => {
  for (let n = 1; n <= CASES; n += 1) {
    const gold = sha256(`gold ${n}`).slice(0, 40);
    const comment = `Looks like #${n + 100000} again. I bisected it to ${gold.slice(0, 9)}.`;
    const at = new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();
    sources.upsertThread({
      repo: REPO, number: n, kind: 'issue', title: `render crash ${n}`, body, author: 'reporter', state: 'open', createdAt: at,
      updatedAt: null, closedAt: null, htmlUrl: `https://github.com/${REPO}/issues/${n}`, source: 'bench',
    });
    sources.replaceComments(REPO, n, [{ repo: REPO, number: n, commentId: n, author: 'dev', createdAt: at, updatedAt: null, body: comment, htmlUrl: null }]);
    const start = comment.indexOf(gold.slice(0, 9));
    const sentenceStart = comment.indexOf('I bisected');
    tables.replaceAttributions(
      REPO,
      n,
      [{
        ref: { type: 'sha', text: gold.slice(0, 9), value: gold.slice(0, 9), urlRepo: null }, kind: 'statement', post: 1, start, end: start + 9,
        sentence: { start: sentenceStart, end: comment.length, text: comment.slice(sentenceStart) }, author: 'dev', createdAt: at, hedged: false,
      }],
      { decision: 'review', reasons: [], culprits: [0] },
    );
    const caseId = `bench_widget__${n}__${gold.slice(0, 8)}`;
    tables.replaceResolution(
      {
        repo: REPO, number: n, status: 'resolved', decision: 'review', caseId, gold, goldSubject: 'Rework', parent: null, defaultBranch: 'main',
        cutoff: gold, cutoffRule: 'first-parent-by-date', cutoffNotes: [], historyWindow: 1, tag: null, tagWindow: null, prNumbers: [],
        reportTime: at, reportUrl: `https://github.com/${REPO}/issues/${n}`,
      },
      [],
      [],
    );
    tables.replaceReport(REPO, n, { original: body, text: body, deletions: [], leakOk: true, leakFindings: [], symptomOk: true, symptomWhy: '' }, []);
    tables.replaceScreen({ repo: REPO, number: n, caseId, decision: 'review', reasons: [{ stage: 'resolve', code: 'symptom-mismatch', evidence: 'Looks like', post: 1 }] });
  }
});

const seconds = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e9;

let t0 = process.hrtime.bigint();
const exported = [...reviewExportLines(store, { status: 'pending' })].map((l) => JSON.parse(l) as { case_key: string; input_digest: string });
const exportS = seconds(t0);
if (exported.length !== CASES) throw new Error(`exported ${exported.length} cases, expected ${CASES}`);

const lines: JsonlLine[] = exported.map((r, i) => ({
  lineNumber: i + 1,
  value: { case_key: r.case_key, reviewer: 'alice', decision: 'accept', reason: 'sound bisect', input_digest: r.input_digest },
}));
t0 = process.hrtime.bigint();
const first = importDecisions(store, lines, new Date('2024-06-01T00:00:00Z'));
const importS = seconds(t0);
t0 = process.hrtime.bigint();
const again = importDecisions(store, lines, new Date('2024-06-01T00:00:00Z'));
const reimportS = seconds(t0);
if (first.imported !== CASES || again.skipped !== CASES || again.imported !== 0) throw new Error('import counts are wrong');

// The duplicate check alone: indexed lookup (the ledger's way) vs reading the whole ledger per line.
const ledger = store.review;
const probes: Omit<ReviewEntry, 'id'>[] = exported.slice(0, NAIVE_SAMPLE).map((r) => ({
  caseKey: r.case_key, task: 'backward', reviewer: 'alice', decision: 'accept', reason: 'sound bisect', inputDigest: r.input_digest,
  recordedAt: '2024-06-01T00:00:00.000Z', source: 'human',
}));
t0 = process.hrtime.bigint();
for (const p of probes) if (ledger.findIdentical(p) === undefined) throw new Error('missing entry');
const indexedS = seconds(t0);
const all = store.db.prepare('SELECT * FROM review_entries');
t0 = process.hrtime.bigint();
for (const p of probes) {
  const rows = all.all() as Record<string, unknown>[];
  const hit = rows.find((r) => r.case_key === p.caseKey && r.reviewer === p.reviewer && r.decision === p.decision && r.reason === p.reason && r.input_digest === p.inputDigest);
  if (!hit) throw new Error('missing entry');
}
const naiveS = seconds(t0);
store.close();

const rate = (n: number, s: number): string => `${Math.round(n / s).toLocaleString('en-US')}/s`;
console.log(`cases: ${CASES} Backward review cases`);
console.log(`review export: ${rate(CASES, exportS)} cases (${exportS.toFixed(2)} s)`);
console.log(`import, first time: ${rate(CASES, importS)} lines (${importS.toFixed(2)} s)`);
console.log(`import, all duplicates: ${rate(CASES, reimportS)} lines (${reimportS.toFixed(2)} s)`);
console.log(`duplicate check, indexed lookup: ${rate(NAIVE_SAMPLE, indexedS)} lines`);
console.log(`duplicate check, naive full ledger scan: ${rate(NAIVE_SAMPLE, naiveS)} lines`);
console.log(`ratio indexed/naive: ${(naiveS / indexedS).toFixed(0)}x`);
