/**
 * BM25 baselines at scale: a generated repository of 50,000 commits (git fast-import), its
 * visible-history index built once through one streamed `git log -p --raw`, then 1,000 reports
 * answered by BM25 over messages (each against the visible history of a random cutoff). The
 * naive approach — re-scoring every visible document's token list for each report, without an
 * inverted index — runs on a sample of the same reports in the same process and gives the
 * per-report ratio. Run: npm run bench -- baselines [--commits N] [--reports N] [--naive N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { BM25_B, BM25_K1, tokenize } from '../../src/baselines/bm25.js';
import { RepoHistory } from '../../src/baselines/history.js';
import { seededRandom } from '../../src/util/random.js';

const opt = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const COMMITS = opt('commits', 50_000);
const REPORTS = opt('reports', 1_000);
const NAIVE = opt('naive', 50);

const WORDS = ('parser layout render cache index socket timeout buffer encode decode stream header cookie session token ' +
  'router handler widget canvas shader texture vertex matrix vector schema migrate query cursor commit branch merge ' +
  'signal thread worker queue retry backoff limit quota memory leak crash panic overflow underflow unicode locale').split(' ');
const ERRORS = ['TypeError', 'RangeError', 'SegmentationFault', 'NullPointer', 'AssertionFailed', 'DeadlockDetected', 'StackOverflow'];

function message(rand: () => number, i: number): string {
  const w = (): string => WORDS[Math.floor(rand() * WORDS.length)]!;
  const subject = `${w()}: ${w()} ${w()} ${w()} (${i})`;
  const body = rand() < 0.3 ? `\n\n${ERRORS[Math.floor(rand() * ERRORS.length)]} in ${w()}_${w()} when ${w()} ${w()} code${i}` : '';
  return `${subject}${body}`;
}

async function generate(gitDir: string): Promise<string[]> {
  await execa('git', ['init', '-q', '--bare', gitDir]);
  const rand = seededRandom(7);
  const messages: string[] = [];
  const parts: string[] = [];
  for (let i = 1; i <= COMMITS; i += 1) {
    const msg = message(rand, i);
    messages.push(msg);
    const content = `value ${i}\n${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}\n`;
    const path = `src/${WORDS[i % 13]}/${WORDS[(i * 3) % WORDS.length]}.js`;
    parts.push(
      `commit refs/heads/main\nmark :${i}\ncommitter Dev <dev@example.org> ${1_600_000_000 + i * 60} +0000\n` +
        `data ${Buffer.byteLength(msg)}\n${msg}\n${i > 1 ? `from :${i - 1}\n` : ''}M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  await execa('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { input: parts.join('') });
  return messages;
}

/** The naive scorer: every visible document's token list scanned for every report. */
function naiveRank(docs: readonly (readonly string[])[], visible: Uint8Array, query: readonly string[]): number {
  const terms = [...new Set(query)];
  let n = 0;
  let total = 0;
  const df = new Map<string, number>(terms.map((t) => [t, 0]));
  const tfs: (Map<string, number> | null)[] = [];
  for (let d = 0; d < docs.length; d += 1) {
    if (visible[d] !== 1) {
      tfs.push(null);
      continue;
    }
    n += 1;
    total += docs[d]!.length;
    const tf = new Map<string, number>();
    for (const t of docs[d]!) if (df.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, df.get(t)! + 1);
    tfs.push(tf);
  }
  const avgdl = total / Math.max(1, n);
  let best = -1;
  let bestScore = 0;
  for (let d = 0; d < docs.length; d += 1) {
    const tf = tfs[d];
    if (!tf) continue;
    let s = 0;
    for (const [t, f] of tf) {
      const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      s += (idf * f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * docs[d]!.length) / avgdl));
    }
    if (s > bestScore) {
      bestScore = s;
      best = d;
    }
  }
  return best;
}

const mb = (): number => process.resourceUsage().maxRSS / 1024;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'r2v-bench-baselines-'));
  try {
    const gitDir = join(dir, 'repo.git');
    let t = performance.now();
    const messages = await generate(gitDir);
    const tip = (await execa('git', ['--git-dir', gitDir, 'rev-parse', 'main'])).stdout.trim();
    process.stdout.write(`generated ${COMMITS} commits in ${((performance.now() - t) / 1000).toFixed(1)} s (git fast-import)\n`);
    const rssBefore = mb();

    t = performance.now();
    const history = new RepoHistory(gitDir);
    await history.ensure(tip);
    const buildMs = performance.now() - t;
    process.stdout.write(`index build: ${history.commits.length} commits (messages + paths/diffs) in ${(buildMs / 1000).toFixed(2)} s, one git process\n`);

    // Reports: a target commit's subject words and error line, reworded, against a cutoff at or above it.
    const rand = seededRandom(11);
    const n = history.commits.length;
    const queries = Array.from({ length: REPORTS }, () => {
      const target = Math.floor(rand() * n * 0.9) + Math.floor(n * 0.1) - 1; // doc index (0 = newest)
      const cutoff = Math.max(0, target - Math.floor(rand() * 500));
      const sha = history.commits[target]!.sha;
      const msg = messages[COMMITS - 1 - target]!;
      return { sha, cutoff: history.commits[cutoff]!.sha, report: `Since the last update: ${msg.replace(/\(\d+\)/, '')}. Please look.` };
    });
    t = performance.now();
    let correct = 0;
    const answers: number[] = [];
    for (const q of queries) {
      const visible = history.visibleFrom(q.cutoff)!;
      const top = history.messages.top(tokenize(q.report), visible, undefined);
      answers.push(top.doc);
      if (top.doc >= 0 && history.commits[top.doc]!.sha === q.sha) correct += 1;
    }
    const queryMs = performance.now() - t;
    const rssIndexed = mb();
    process.stdout.write(`queries: ${REPORTS} reports in ${(queryMs / 1000).toFixed(2)} s (${(queryMs / REPORTS).toFixed(2)} ms/report incl. visibility), top-1 = target ${correct}/${REPORTS}\n`);
    process.stdout.write(`peak RSS: ${rssIndexed.toFixed(0)} MB (${rssBefore.toFixed(0)} MB before the index)\n`);

    // Naive, same run: token lists of every message, every visible one scored per report.
    t = performance.now();
    const docs: string[][] = history.commits.map((_, i) => tokenize(i < messages.length ? messages[COMMITS - 1 - i]! : ''));
    const naiveBuildMs = performance.now() - t;
    t = performance.now();
    let agree = 0;
    const sample = queries.slice(0, NAIVE);
    sample.forEach((q, i) => {
      const best = naiveRank(docs, history.visibleFrom(q.cutoff)!, tokenize(q.report));
      if (best === answers[i]) agree += 1;
    });
    const naiveMs = performance.now() - t;
    const perIndexed = queryMs / REPORTS;
    const perNaive = naiveMs / sample.length;
    process.stdout.write(`naive (no inverted index): ${(perNaive).toFixed(2)} ms/report over ${sample.length} reports (+ ${(naiveBuildMs / 1000).toFixed(2)} s tokenizing); same top-1 on ${agree}/${sample.length}\n`);
    process.stdout.write(`ratio naive/indexed per report: ${(perNaive / perIndexed).toFixed(1)}x\n`);
    if (agree !== sample.length) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
