/**
 * Backward on a labelled corpus of real threads: runs the chain of `r2v inspect backward`
 * (inspectThread: attribute → screen → resolve → validate → sanitize → audit) on every thread,
 * with the thread's repository as --git-dir when a fetched copy of it is under --mirrors, and
 * compares with the labels. A naive keyword + SHA extractor runs on the same threads in the same
 * run as the baseline.
 *
 *   npm run bench -- backward-corpus --corpus PATH [--mirrors DIR] [--alias OLD=NEW …] [--explain ID] [--list]
 *
 * The corpus format (one thread a line: repo, number, title, body, comments, created_at and an
 * `expected` object with decision, full_sha, answer_spans, must_keep) is described in the
 * corpus's README. Without --corpus the benchmark says so and exits 0 (it has no corpus of its own).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { explainThread } from '../../src/backward/explain.js';
import type { Thread, ThreadPost } from '../../src/model/backward.js';
import { inspectThread, openGitTarget, type GitTarget, type InspectedThread } from '../../src/commands/inspect-backward.js';
import { readJsonl } from '../../src/util/jsonl.js';

interface Expected {
  decision: 'accept' | 'reject';
  reason: string;
  full_sha: string | null;
  sha_verified_by_git: boolean;
  answer_spans: string[] | null;
  must_keep: string[] | null;
}

interface CorpusThread {
  id: string;
  repo: string;
  number: number;
  url: string;
  title: string;
  body: string | null;
  author: string | null;
  created_at: string;
  comments: { author: string | null; created_at: string; body: string | null }[];
  expected: Expected;
  verification?: { full_sha?: string | null } | null;
}

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    mirrors: { type: 'string' },
    explain: { type: 'string' },
    list: { type: 'boolean', default: false },
    alias: { type: 'string', multiple: true },
  },
});

/** --alias OLD=NEW: OLD (owner/name) is a former name of NEW, as `repos[].aliases` in a config says. */
const aliasesOf = new Map<string, string[]>();
for (const a of values.alias ?? []) {
  const m = /^([^=\s]+\/[^=\s]+)=([^=\s]+\/[^=\s]+)$/.exec(a);
  if (!m) {
    process.stderr.write(`--alias ${a}: expected OLD/NAME=NEW/NAME\n`);
    process.exit(2);
  }
  const key = m[2]!.toLowerCase();
  aliasesOf.set(key, [...(aliasesOf.get(key) ?? []), m[1]!]);
}

if (!values.corpus) {
  process.stdout.write('backward-corpus: no --corpus PATH given; nothing to measure\n');
  process.exit(0);
}
const corpusPath = resolve(values.corpus);
if (!existsSync(corpusPath)) {
  process.stderr.write(`--corpus ${values.corpus}: file not found\n`);
  process.exit(2);
}
const mirrorsDir = values.mirrors ? resolve(values.mirrors) : null;
if (mirrorsDir && !(existsSync(mirrorsDir) && statSync(mirrorsDir).isDirectory())) {
  process.stderr.write(`--mirrors ${values.mirrors}: no such directory\n`);
  process.exit(2);
}

/** Day-precision dates stand for the end of that day (a culprit committed the same day still counts). */
function timestamp(d: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d}T23:59:59Z` : d;
}

function threadOf(c: CorpusThread): Thread {
  const author = c.author ?? 'ghost';
  const posts: ThreadPost[] = [
    { index: 0, id: null, author, createdAt: timestamp(c.created_at), body: c.body ?? '', url: c.url },
    ...c.comments.map((m, k) => ({
      index: k + 1,
      id: k + 1,
      author: m.author ?? 'ghost',
      createdAt: timestamp(m.created_at),
      body: m.body ?? '',
      url: null,
    })),
  ];
  const aliases = aliasesOf.get(c.repo.toLowerCase());
  return { repo: c.repo, number: c.number, title: c.title, author, createdAt: timestamp(c.created_at), url: c.url, posts, ...(aliases ? { aliases } : {}) };
}

/** The git directory of a fetched copy of `repo` under DIR: `owner+name/repo`, `owner+name`, or `owner__name.git`. */
function mirrorOf(dir: string, repo: string, entries: readonly string[]): string | null {
  const [owner, name] = repo.split('/');
  const wanted = new Set([`${owner}+${name}`, `${owner}__${name}.git`, `${owner}__${name}`].map((s) => s.toLowerCase()));
  const hit = entries.find((e) => wanted.has(e.toLowerCase()));
  if (!hit) return null;
  const base = join(dir, hit);
  for (const candidate of [join(base, 'repo'), base]) {
    if (existsSync(join(candidate, 'HEAD')) && existsSync(join(candidate, 'objects'))) return candidate;
    if (existsSync(join(candidate, '.git', 'HEAD'))) return join(candidate, '.git');
  }
  return null;
}

const corpus: CorpusThread[] = [];
let unreadable = 0;
for await (const line of readJsonl(corpusPath)) {
  if (line.error) {
    unreadable += 1;
    process.stderr.write(`${values.corpus}:${line.lineNumber}: ${line.error}\n`);
    continue;
  }
  const v = line.value as CorpusThread;
  if (!v || typeof v.repo !== 'string' || typeof v.number !== 'number' || !v.expected || !Array.isArray(v.comments)) {
    unreadable += 1;
    process.stderr.write(`${values.corpus}:${line.lineNumber}: not a corpus thread (needs repo, number, comments, expected)\n`);
    continue;
  }
  corpus.push(v);
}

const entries = mirrorsDir ? readdirSync(mirrorsDir) : [];
const targets = new Map<string, GitTarget | null>();
async function targetOf(repo: string): Promise<GitTarget | null> {
  if (!mirrorsDir) return null;
  if (!targets.has(repo)) {
    const gitDir = mirrorOf(mirrorsDir, repo, entries);
    targets.set(repo, gitDir ? await openGitTarget(gitDir, process.cwd()) : null);
  }
  return targets.get(repo)!;
}

if (values.explain) {
  const c = corpus.find((t) => t.id === values.explain || `${t.repo}#${t.number}` === values.explain);
  if (!c) {
    process.stderr.write(`--explain ${values.explain}: no such thread in the corpus\n`);
    process.exit(2);
  }
  const thread = threadOf(c);
  const git = await targetOf(c.repo);
  const got = await inspectThread(thread, git);
  process.stdout.write(`${c.id}: expected ${c.expected.decision} (${c.expected.reason})\n`);
  process.stdout.write(`r2v: ${got.decision} [${got.reasons.join(', ')}] gold ${got.gold.sha ?? '-'} (${got.gold.status})\n`);
  for (const e of got.evidence) process.stdout.write(`  reason ${e}\n`);
  process.stdout.write(explainThread(thread));
  process.stdout.write(`report as sanitized (${got.report.text.length} characters):\n${got.report.text.replace(/^/gm, '  | ')}\n`);
  for (const t of targets.values()) await t?.objects.close();
  process.exit(0);
}

// ---- the naive baseline: a causal keyword and a SHA in the same sentence ----

const NAIVE_KEYWORD = /\b(?:bisect\w*|first bad|introduced|caused|broke\w*|culprit|regress\w*)\b/i;
const NAIVE_REF = /https?:\/\/\S+?\/commits?\/([0-9a-f]{7,40})|\b([0-9a-f]{7,40})\b/i;

interface Outcome {
  decision: 'accept' | 'reject';
  gold: string | null;
  /** The text a solver would read (title, body, comments before the attribution), after deletion. */
  report: string;
  /** The report before deletion and what was deleted from it, when known. */
  original?: string;
  deletions?: readonly { start: number; end: number; detector: string }[];
}

async function naive(c: CorpusThread, git: GitTarget | null): Promise<Outcome> {
  const texts = [c.title, c.body ?? '', ...c.comments.map((m) => m.body ?? '')];
  for (let i = 0; i < texts.length; i += 1) {
    for (const sentence of texts[i]!.split(/(?<=[.!?])\s+|\n/)) {
      if (!NAIVE_KEYWORD.test(sentence)) continue;
      const m = NAIVE_REF.exec(sentence);
      const hex = m?.[1] ?? m?.[2];
      if (!hex || !/[a-f]/i.test(hex) || !/\d/.test(hex)) continue;
      let gold: string | null = null;
      if (git) {
        const [r] = await git.objects.resolve([hex.toLowerCase()]);
        gold = r?.status === 'ok' ? r.sha : null;
      }
      const kept = texts.slice(0, Math.max(2, i + 1)).map((t, k) => (k === i ? t.replace(sentence, '') : t));
      return { decision: 'accept', gold, report: kept.join('\n\n') };
    }
  }
  return { decision: 'reject', gold: null, report: texts.join('\n\n') };
}

// ---- scoring ----

interface Score {
  correct: number;
  acceptsFound: number;
  lookalikesThrough: number;
  reviews: number;
  goldChecked: number;
  goldExact: number;
  leaks: number;
  leakThreads: string[];
  mustKeep: number;
  mustKept: number;
  /** `thread: first characters of the symptom text` for each must-keep text the report lost. */
  mustLost: string[];
}

const fresh = (): Score => ({ correct: 0, acceptsFound: 0, lookalikesThrough: 0, reviews: 0, goldChecked: 0, goldExact: 0, leaks: 0, leakThreads: [], mustKeep: 0, mustKept: 0, mustLost: [] });

function fullGold(c: CorpusThread): string | null {
  return (c.verification?.full_sha ?? c.expected.full_sha ?? null)?.toLowerCase() ?? null;
}

/** Answer spans surviving whole, and 7+ hex prefixes of the gold SHA anywhere. */
function leaksIn(c: CorpusThread, report: string): number {
  let n = 0;
  for (const span of c.expected.answer_spans ?? []) if (span.trim() !== '' && report.includes(span)) n += 1;
  const gold = fullGold(c);
  if (gold && gold.length >= 7 && report.toLowerCase().includes(gold.slice(0, 7))) n += 1;
  return n;
}

function score(s: Score, c: CorpusThread, o: Outcome, hasMirror: boolean, review: boolean): void {
  const accept = c.expected.decision === 'accept';
  if (review) s.reviews += 1;
  if (accept === (o.decision === 'accept')) s.correct += 1;
  if (accept && o.decision === 'accept') s.acceptsFound += 1;
  if (!accept && o.decision === 'accept') s.lookalikesThrough += 1;
  if (accept && hasMirror && c.expected.sha_verified_by_git) {
    s.goldChecked += 1;
    const gold = fullGold(c);
    if (o.decision === 'accept' && gold && o.gold?.toLowerCase() === gold) s.goldExact += 1;
  }
  if (accept && o.decision === 'accept') {
    const n = leaksIn(c, o.report);
    s.leaks += n;
    if (n > 0) s.leakThreads.push(c.id);
  }
  if (accept) {
    for (const keep of c.expected.must_keep ?? []) {
      s.mustKeep += 1;
      if (o.report.includes(keep)) s.mustKept += 1;
      else s.mustLost.push(`${c.id} (${o.decision}): ${JSON.stringify(keep.slice(0, 40))}… ${lostWhy(o, keep)}`);
    }
  }
}

/** Why a must-keep text is missing: which detectors deleted it, or that its post is not in the report. */
function lostWhy(o: Outcome, keep: string): string {
  if (o.original === undefined || o.deletions === undefined) return '';
  const at = o.original.indexOf(keep);
  if (at < 0) return '[outside the report]';
  const by = new Set(o.deletions.filter((d) => d.start < at + keep.length && d.end > at).map((d) => d.detector));
  return `[deleted by ${[...by].join(', ')}] ` + (process.env.SHOWDEL ? JSON.stringify(o.deletions.filter((d) => d.start < at + keep.length && d.end > at).map((d) => o.original!.slice(d.start, d.end))) : '');
}

const r2v = fresh();
const base = fresh();
const confusion = new Map<string, number>();
const mismatches: string[] = [];
let repoCount = 0;
const mirrored = new Set<string>();
let index = 0;
const progress = process.stderr.isTTY;
for (const c of corpus) {
  index += 1;
  if (progress) process.stderr.write(`\r${index}/${corpus.length} ${c.id}`.padEnd(70));
  const git = await targetOf(c.repo);
  if (git) mirrored.add(c.repo);
  let got: InspectedThread;
  try {
    got = await inspectThread(threadOf(c), git);
  } catch (error) {
    process.stderr.write(`${c.id}: ${(error as Error).message}\n`);
    unreadable += 1;
    continue;
  }
  const decision = got.decision === 'candidate' ? 'accept' : 'reject';
  score(r2v, c, { decision, gold: got.gold.sha, report: got.report.text, original: got.report.original, deletions: got.report.deletions }, git !== null, got.decision === 'review');
  score(base, c, await naive(c, git), git !== null, false);
  const cell = `${c.expected.decision} → ${got.decision}${got.decision === 'candidate' ? '' : `:${got.reasons.join('+') || '-'}`}`;
  confusion.set(cell, (confusion.get(cell) ?? 0) + 1);
  const wrongGold = c.expected.decision === 'accept' && decision === 'accept' && git && c.expected.sha_verified_by_git && got.gold.sha !== fullGold(c);
  if ((c.expected.decision === 'accept') !== (decision === 'accept') || wrongGold) {
    mismatches.push(`${c.id}: expected ${c.expected.decision}, got ${got.decision} [${got.reasons.join(', ')}]${wrongGold ? ` gold ${got.gold.sha} ≠ ${fullGold(c)}` : ''}`);
  }
}
if (progress) process.stderr.write('\r'.padEnd(72) + '\r');
repoCount = new Set(corpus.map((c) => c.repo)).size;
for (const t of targets.values()) await t?.objects.close();

const accepts = corpus.filter((c) => c.expected.decision === 'accept').length;
const rejects = corpus.length - accepts;
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
const row = (label: string, a: string, b: string): string => `${label.padEnd(28)} ${a.padEnd(18)} ${b}\n`;
const out = process.stdout;
out.write(`corpus: ${corpus.length} threads (${accepts} accept, ${rejects} reject), ${repoCount} repositories, ${mirrored.size} with a fetched copy${unreadable > 0 ? `, ${unreadable} unreadable` : ''}\n`);
out.write(row('', 'r2v', 'naive keyword+SHA'));
out.write(row('decisions correct', `${r2v.correct}/${corpus.length} ${pct(r2v.correct, corpus.length)}`, `${base.correct}/${corpus.length} ${pct(base.correct, corpus.length)}`));
out.write(row('recall of accepts', `${r2v.acceptsFound}/${accepts} ${pct(r2v.acceptsFound, accepts)}`, `${base.acceptsFound}/${accepts} ${pct(base.acceptsFound, accepts)}`));
out.write(row('look-alikes let through', `${r2v.lookalikesThrough}/${rejects} ${pct(r2v.lookalikesThrough, rejects)}`, `${base.lookalikesThrough}/${rejects} ${pct(base.lookalikesThrough, rejects)}`));
out.write(row('gold SHA exact (fetched)', `${r2v.goldExact}/${r2v.goldChecked}`, `${base.goldExact}/${base.goldChecked}`));
out.write(row('answer leaks (found accepts)', `${r2v.leaks}`, `${base.leaks}`));
out.write(row('must-keep kept', `${r2v.mustKept}/${r2v.mustKeep} ${pct(r2v.mustKept, r2v.mustKeep)}`, `${base.mustKept}/${base.mustKeep} ${pct(base.mustKept, base.mustKeep)}`));
out.write(row('sent to review', `${r2v.reviews}`, '-'));
const ratio = base.correct === 0 ? 'n/a' : (r2v.correct / base.correct).toFixed(2);
out.write(`decisions correct, r2v / naive: ${ratio}×\n`);
out.write('\nconfusion (expected → r2v decision:reasons):\n');
for (const [cell, n] of [...confusion].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out.write(`  ${String(n).padStart(3)}  ${cell}\n`);
if (r2v.leakThreads.length > 0) out.write(`\nleaks in: ${r2v.leakThreads.join(', ')}\n`);
if (values.list && r2v.mustLost.length > 0) {
  out.write('\nmust-keep lost:\n');
  for (const m of r2v.mustLost) out.write(`  ${m}\n`);
}
if (values.list && mismatches.length > 0) {
  out.write('\nmismatches:\n');
  for (const m of mismatches) out.write(`  ${m}\n`);
}
process.exit(unreadable > 0 ? 3 : 0);
