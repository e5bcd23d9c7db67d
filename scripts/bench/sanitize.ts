/**
 * Sanitization throughput on the thread corpus against a generated repository: which hex runs
 * name commits is asked of one long-lived `git cat-file --batch-check` (the stage's way) versus
 * one `git rev-parse` process per hex run (the naive way). Prints reports per second for both
 * and the ratio.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { extractAttributions } from '../../src/backward/attribute.js';
import { threadFromImport } from '../../src/backward/thread.js';
import type { Thread } from '../../src/model/backward.js';
import { BatchObjects } from '../../src/git/batch.js';
import { GIT_ENV } from '../../src/git/runner.js';
import { buildReport, sanitizeBuiltReport } from '../../src/sanitize/index.js';
import { HEX_RUN, matchesOf } from '../../src/sanitize/text.js';
import { commitRunsOf } from '../../src/backward/chain.js';
import { commitPrefixTest } from '../../src/backward/report.js';

const COMMITS = 5000;
const ROUNDS = 20;

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'r2v-bench-sanitize-'));
try {
  // A bare repository of COMMITS commits, written in one fast-import stream.
  await execa('git', ['init', '-q', '--bare', dir], { env: GIT_ENV });
  let stream = '';
  for (let i = 1; i <= COMMITS; i += 1) {
    const msg = `Change ${i}\n`;
    const content = `line ${i}\n`;
    stream += `commit refs/heads/main\nmark :${i}\ncommitter B <b@example.com> ${1_700_000_000 + i * 60} +0000\ndata ${msg.length}\n${msg}`;
    if (i > 1) stream += `from :${i - 1}\n`;
    stream += `M 100644 inline f.txt\ndata ${content.length}\n${content}\n`;
  }
  await execa('git', ['--git-dir', dir, 'fast-import', '--quiet'], { input: stream, env: GIT_ENV });
  const shas = (await execa('git', ['--git-dir', dir, 'rev-list', 'main'], { env: GIT_ENV })).stdout.split('\n');

  // The corpus, each report given a paste of eight abbreviated SHAs of the repository and two strangers.
  const threads: Thread[] = readFileSync(join(root, 'test/fixtures/backward/threads.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, n) => {
      const t = threadFromImport(JSON.parse(l));
      const paste = Array.from({ length: 10 }, (_, k) =>
        k < 8 ? shas[(n * 97 + k * 13) % shas.length]!.slice(0, 7 + (k % 5)) : `${(n * 7919 + k).toString(16).padStart(6, '0')}e9`,
      ).join('\n');
      const posts = t.posts.map((p, i) => (i === 0 ? { ...p, body: `${p.body}\n\n\`\`\`\n${paste}\n\`\`\`` } : p));
      return { ...t, posts };
    });
  const prepared = threads.map((t) => {
    const attributions = extractAttributions(t);
    return { t, attributions, report: buildReport(t, attributions) };
  });
  const runs = prepared.reduce((n, p) => n + new Set(matchesOf(p.report.text, HEX_RUN).map((m) => m.text)).size, 0);

  const objects = BatchObjects.open(dir);
  let deletedBatch = 0;
  const t0 = performance.now();
  for (let r = 0; r < ROUNDS; r += 1) {
    for (const p of prepared) {
      const runs = [...new Set(matchesOf(p.report.text, HEX_RUN).map((m) => m.text.toLowerCase()))];
      const isCommitPrefix = commitPrefixTest(p.report.text, [], await commitRunsOf(objects, runs));
      deletedBatch += sanitizeBuiltReport(p.report, p.attributions, { repo: p.t.repo, isCommitPrefix }).deletions.length;
    }
  }
  const batchMs = performance.now() - t0;
  await objects.close();

  let deletedNaive = 0;
  const t1 = performance.now();
  for (const p of prepared) {
    const yes = new Set<string>();
    for (const run of new Set(matchesOf(p.report.text, HEX_RUN).map((m) => m.text.toLowerCase()))) {
      const r = await execa('git', ['--git-dir', dir, 'rev-parse', '-q', '--verify', `${run}^{commit}`], { env: GIT_ENV, reject: false });
      if (r.exitCode === 0) yes.add(run);
    }
    deletedNaive += sanitizeBuiltReport(p.report, p.attributions, { repo: p.t.repo, isCommitPrefix: (h) => yes.has(h) }).deletions.length;
  }
  const naiveMs = performance.now() - t1;

  const batchRate = (prepared.length * ROUNDS) / (batchMs / 1000);
  const naiveRate = prepared.length / (naiveMs / 1000);
  console.log(`repository: ${COMMITS} commits; reports: ${prepared.length} (${runs} distinct hex runs)`);
  console.log(`batch cat-file: ${batchRate.toFixed(0)} reports/s (${ROUNDS} rounds, ${(batchMs / ROUNDS).toFixed(1)} ms per round)`);
  console.log(`rev-parse per run: ${naiveRate.toFixed(1)} reports/s (1 round, ${naiveMs.toFixed(0)} ms)`);
  console.log(`ratio: ${(batchRate / naiveRate).toFixed(1)}x`);
  console.log(`same deletions: ${deletedBatch / ROUNDS === deletedNaive ? 'yes' : `no (${deletedBatch / ROUNDS} vs ${deletedNaive})`}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
