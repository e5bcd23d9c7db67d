/**
 * Export of 10,000 / 100,000 / 1,000,000 synthetic admitted/rejected cases: the streamed exporter (SQLite iterate,
 * bounded write buffer) against a naive one (load every row, parse, sort in memory, stringify,
 * write once). Each runs in its own child process so its peak RSS is measured cleanly
 * (process.resourceUsage().maxRSS). Run: npm run bench -- export [--sizes 10000,100000,1000000] (the default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { openStore } from '../../src/store/db.js';
import { canonicalJson, sha256 } from '../../src/util/canonical.js';
import { ensureBuild } from '../build.mjs';

const ROOT = resolve(import.meta.dirname, '../..');

interface ChildResult {
  mode: string;
  ms: number;
  /** CPU time (user + system) of the work, the steadier figure on a shared machine. */
  cpuMs: number;
  maxRssMb: number;
  heapUsedMb: number;
  backwardSha: string;
}

const hex = (n: number, len: number): string => sha256(String(n)).slice(0, len);

function seed(dbPath: string, n: number): void {
  const store = openStore(dbPath);
  const t = store.admission;
  const backwardTables = store.backward;
  const sources = store.sources;
  const report = 'Rendering any SVG with nested groups now fails with a TypeError in src/flatten.js. '.repeat(12);
  store.transaction(() => {
    for (let i = 0; i < n; i += 1) {
      const repo = `acme/repo${i % 7}`;
      const backward = i % 2 === 0;
      const caseId = `${repo.replace('/', '_')}__${i}__${hex(i, 8)}`;
      const record = backward
        ? { task: 'backward', case_id: caseId, repo, number: i, report, cutoff: hex(i + 1, 40), gold: hex(i + 2, 40), history_window: i % 50,
            checks: { 'full-sha': true, exists: true, temporal: true }, probe: null, labels: { cutoff_rule: 'first-parent-by-date' },
            source: { issue_url: `https://github.com/${repo}/issues/${i}`, attribution_url: null, quote: 'is the first bad commit' }, digests: { report: hex(i, 64) } }
        : { task: 'forward', case_id: caseId, repo, issue: i, pull: i + 1, issue_text: report.slice(0, 400), base: hex(i + 3, 40),
            context: { event: 'pull_request', action: 'synchronize', base_branch: 'main' }, changed_paths: ['src/a.ts', 'docs/b.md'],
            gold: ['.github/workflows/ci.yml'], evaluator: 'routing/1', source: { issue_url: null, pr_url: null, link_kind: 'timeline' } };
      const rejected = i % 5 === 0;
      // The upstream row that keeps the candidate current (export leaves vanished candidates out).
      if (backward) {
        backwardTables.replaceResolution({
          repo, number: i, status: 'resolved', decision: 'candidate', caseId, gold: hex(i + 2, 40), goldSubject: null, parent: null,
          defaultBranch: 'main', cutoff: hex(i + 1, 40), cutoffRule: 'first-parent-by-date', cutoffNotes: [], historyWindow: i % 50, tag: null,
          tagWindow: null, prNumbers: [], reportTime: '2024-01-01T00:00:00Z', reportUrl: `https://github.com/${repo}/issues/${i}`,
        }, [], []);
      } else sources.upsertLink({ repo, issue: i, pull: i + 1, how: 'timeline', evidence: '' });
      t.replace({
        task: backward ? 'backward' : 'forward', itemKey: `${repo}#${i}`, caseId, repo, number: i, pull: backward ? null : i + 1,
        record: canonicalJson(record),
        blockers: rejected ? [{ gate: 'always', stage: 'screen', code: 'hedged', evidence: 'I suspect' }] : [{ gate: 'review', stage: 'review', code: 'review-required', evidence: 'none' }],
      });
    }
  });
  store.close();
}

/**
 * The measured children run compiled JavaScript from dist/ (no tsx), like the installed CLI:
 * `baseline` loads the CLI and opens the database; `streamed` is `r2v --db DB -q export --out OUT`
 * itself; `naive` loads every row, parses, sorts in memory, stringifies and writes once. Each
 * prints its peak RSS (process.resourceUsage().maxRSS) as the last line of stdout.
 */
const CHILD = String.raw`
const [mode, dbPath, out, root] = process.argv.slice(1);
const { createReadStream, writeFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { createHash } = await import('node:crypto');
const { pathToFileURL } = await import('node:url');
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
const { openStore } = await import(dist('store/db.js'));
const { canonicalJson } = await import(dist('util/canonical.js'));
const t0 = performance.now();
const c0 = process.cpuUsage();
if (mode === 'streamed') {
  const { runCli } = await import(dist('cli.js'));
  const sink = { write: () => true };
  const code = await runCli(['--db', dbPath, '-q', 'export', '--out', out], { io: { stdout: sink, env: {}, cwd: root } });
  if (code !== 0) throw new Error('r2v export exited ' + code);
} else if (mode === 'naive') {
  const store = openStore(dbPath);
  const rows = store.db.prepare("SELECT task, case_id, record, blockers FROM admissions a WHERE " +
    "(a.task = 'backward' AND EXISTS (SELECT 1 FROM backward_cases c WHERE c.repo = a.repo AND c.number = a.number)) " +
    "OR (a.task = 'forward' AND EXISTS (SELECT 1 FROM links l WHERE l.repo = a.repo AND l.issue = a.number AND l.pull = a.pull))").all();
  const parsed = rows.map((r) => ({ task: r.task, caseId: r.case_id, record: JSON.parse(r.record), blockers: JSON.parse(r.blockers) }));
  parsed.sort((a, b) => (a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : 0));
  for (const task of ['backward', 'forward']) {
    const admitted = parsed.filter((p) => p.task === task && !p.blockers.some((b) => b.gate === 'always' || b.gate === 'candidate'));
    const text = admitted.map((p) => canonicalJson({ ...p.record, tier: 'admitted', blockers: [] })).join('\n');
    writeFileSync(join(out, task + '.jsonl'), text.length > 0 ? text + '\n' : '');
  }
  store.close();
} else {
  await import(dist('cli.js'));
  openStore(dbPath).close();
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000;
// Peak RSS before the manifest is read back for its digest (streamed, but measured first all the same).
const maxRssMb = process.resourceUsage().maxRSS / 1024;
const heapUsedMb = process.memoryUsage().heapUsed / 2 ** 20;
let backwardSha = '';
if (mode !== 'baseline') {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(join(out, 'backward.jsonl'))) hash.update(chunk);
  backwardSha = hash.digest('hex');
}
process.stdout.write(JSON.stringify({ mode, ms, cpuMs, maxRssMb, heapUsedMb, backwardSha }) + '\n');
`;

/** The fixed bound on the streamed exporter's peak RSS above the baseline process, whatever the case count. */
const MEMORY_BOUND_MB = 160;

async function runChild(mode: string, dbPath: string, out: string): Promise<ChildResult> {
  const r = await execa(process.execPath, ['--input-type=module', '-e', CHILD, mode, dbPath, out, ROOT]);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ChildResult;
}

async function main(): Promise<void> {
  // One block per size (the naive exporter only up to 100,000 cases); the streamed exporter's
  // peak RSS should stay flat as the count grows, and under 200 MB in all.
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10000,100000,1000000' } } });
  const sizes = values.sizes.split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
    process.stderr.write(`bench export: --sizes ${values.sizes}: expected comma-separated positive case counts\n`);
    process.exit(2);
  }
  const summary: string[] = [];
  for (const n of sizes) summary.push(await one(n, n <= 100_000));
  process.stdout.write(`\nstreamed export by size (peak RSS of the exporting process; time):\n${summary.join('\n')}\n`);
}

async function one(n: number, withNaive: boolean): Promise<string> {
  process.stdout.write(`\n-- ${n.toLocaleString('en-US')} cases --\n`);
  const dir = mkdtempSync(join(tmpdir(), 'r2v-bench-export-'));
  try {
    const dbPath = join(dir, 'r2v.db');
    const t0 = performance.now();
    seed(dbPath, n);
    process.stdout.write(`seeded ${n} cases in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const base = await runChild('baseline', dbPath, dir);
    const streamed = await runChild('streamed', dbPath, dir);
    const naiveDir = mkdtempSync(join(dir, 'naive-'));
    const naive = withNaive ? await runChild('naive', dbPath, naiveDir) : null;
    const line = (r: ChildResult): string =>
      `${r.mode.padEnd(9)} ${(r.ms / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU  ${Math.round(n / (r.ms / 1000))} cases/s (${Math.round(n / (r.cpuMs / 1000))} per CPU second)  peak RSS ${r.maxRssMb.toFixed(0)} MB  heap at end ${r.heapUsedMb.toFixed(0)} MB`;
    process.stdout.write(`baseline  peak RSS ${base.maxRssMb.toFixed(0)} MB (process start + open database)\n`);
    process.stdout.write(`${line(streamed)}\n${naive ? `${line(naive)}\n` : ''}`);
    if (naive) process.stdout.write(
      `peak RSS above baseline: streamed ${(streamed.maxRssMb - base.maxRssMb).toFixed(0)} MB, naive ${(naive.maxRssMb - base.maxRssMb).toFixed(0)} MB, ` +
        `ratio naive/streamed ${((naive.maxRssMb - base.maxRssMb) / Math.max(1, streamed.maxRssMb - base.maxRssMb)).toFixed(1)}x; ` +
        `time ratio naive/streamed ${(naive.ms / streamed.ms).toFixed(2)}x\n`,
    );
    if (naive) process.stdout.write(`backward.jsonl identical in both: ${streamed.backwardSha === naive.backwardSha}\n`);
    const above = streamed.maxRssMb - base.maxRssMb;
    const within = above <= MEMORY_BOUND_MB;
    process.stdout.write(`streamed export memory bound ${MEMORY_BOUND_MB} MB above baseline: ${within ? 'within' : 'EXCEEDED'} (${above.toFixed(0)} MB)\n`);
    if (!within || (naive && streamed.backwardSha !== naive.backwardSha)) process.exitCode = 1;
    return `  ${n.toLocaleString('en-US').padStart(9)} cases: peak RSS ${streamed.maxRssMb.toFixed(0)} MB${streamed.maxRssMb < 200 ? '' : ' (goal < 200 MB NOT met)'} (${above.toFixed(0)} MB above the ${base.maxRssMb.toFixed(0)} MB baseline), ${(streamed.ms / 1000).toFixed(2)} s wall, ${(streamed.cpuMs / 1000).toFixed(2)} s CPU, ${Math.round(n / (streamed.ms / 1000))} cases/s, ${Math.round(n / (streamed.cpuMs / 1000))} cases per CPU second`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await ensureBuild();
await main();
