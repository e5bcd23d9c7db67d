/**
 * forward-pairs.jsonl: for each Forward case of a manifest, its paired state (see
 * forward/paired-states.ts) or `no-pair` with the search bound, one canonical line per case in
 * the manifest's case-id order, and a forward-pairs.meta.json sidecar. Written under temporary
 * names and renamed when complete.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { BatchObjects } from '../git/batch.js';
import { PairedStateSearch, type PairOutcome } from '../forward/paired-states.js';
import { EVALUATOR_ID } from '../routing/index.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { canonicalJson } from '../util/canonical.js';
import { readJsonl } from '../util/jsonl.js';
import type { MirrorOf } from './mirrors.js';
import { checkManifestPath, type ForwardManifestRecord, type ManifestRecord } from './read-manifest.js';
import { r2vVersion } from '../version.js';

export const PAIRS_FILE = 'forward-pairs.jsonl';

const Sha = z.string().regex(/^[0-9a-f]{40}$/);

/** One line of forward-pairs.jsonl. */
export const ForwardPairRecord = z.object({
  case_id: z.string().min(1),
  repo: z.string().min(1),
  status: z.enum(['paired', 'no-pair', 'error']),
  base: Sha,
  paired_sha: Sha.nullable(),
  distance: z.number().int().nullable(),
  gold: z.array(z.string()),
  paired_gold: z.array(z.string()).nullable(),
  flipped: z.array(z.string()),
  bound: z.number().int(),
  searched: z.number().int().nullable(),
  why: z.string().nullable(),
  evaluator: z.string(),
});
export type ForwardPairRecord = z.infer<typeof ForwardPairRecord>;

export function pairRecord(r: ForwardManifestRecord, out: PairOutcome, bound: number): ForwardPairRecord {
  return {
    case_id: r.case_id,
    repo: r.repo,
    status: out.status,
    base: r.base,
    paired_sha: out.status === 'paired' ? out.pairedSha : null,
    distance: out.status === 'paired' ? out.distance : null,
    gold: [...r.gold].sort(),
    paired_gold: out.status === 'paired' ? out.pairedGold : null,
    flipped: out.status === 'paired' ? out.flipped : [],
    bound,
    searched: out.status === 'no-pair' ? out.searched : out.status === 'paired' ? out.distance : null,
    why: out.status === 'paired' ? null : out.why,
    evaluator: EVALUATOR_ID,
  };
}

export interface PairsSummary {
  readonly path: string;
  readonly records: number;
  readonly paired: number;
  readonly noPair: number;
  readonly errors: number;
  readonly sha256: string;
}

/**
 * Searches the paired state of every Forward case of `records` (Backward records are skipped),
 * with one object reader per repository, and writes forward-pairs.jsonl into `outDir`.
 */
export async function writeForwardPairs(
  records: AsyncIterable<ManifestRecord> | Iterable<ManifestRecord>,
  mirrors: MirrorOf,
  outDir: string,
  bound: number,
  onCase?: (done: number) => void,
): Promise<PairsSummary> {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, PAIRS_FILE);
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  const hash = createHash('sha256');
  const searches = new Map<string, { objects: BatchObjects; search: PairedStateSearch }>();
  const counts = { records: 0, paired: 0, noPair: 0, errors: 0 };
  let closed = false;
  try {
    for await (const r of records) {
      if (r.task !== 'forward') continue;
      let s = searches.get(r.repo);
      if (!s) {
        const objects = BatchObjects.open(mirrors(r.repo));
        s = { objects, search: new PairedStateSearch(objects, bound) };
        searches.set(r.repo, s);
      }
      const outcome = await s.search.search({ caseId: r.case_id, repo: r.repo, base: r.base, changedPaths: r.changed_paths, context: { event: 'pull_request', action: r.context.action, base_branch: r.context.base_branch }, gold: r.gold });
      const line = Buffer.from(`${canonicalJson(pairRecord(r, outcome, bound))}\n`, 'utf8');
      hash.update(line);
      for (let off = 0; off < line.length; ) off += writeSync(fd, line, off);
      counts.records += 1;
      if (outcome.status === 'paired') counts.paired += 1;
      else if (outcome.status === 'no-pair') counts.noPair += 1;
      else counts.errors += 1;
      onCase?.(counts.records);
    }
    closeSync(fd);
    closed = true;
    const sha256 = hash.digest('hex');
    const meta = {
      file: PAIRS_FILE,
      kind: 'forward-pairs',
      r2v_version: r2vVersion(),
      evaluator: EVALUATOR_ID,
      bound,
      counts: { records: counts.records, paired: counts.paired, no_pair: counts.noPair, error: counts.errors },
      sha256,
    };
    renameSync(tmp, path);
    writeFileAtomic(join(outDir, 'forward-pairs.meta.json'), `${JSON.stringify(JSON.parse(canonicalJson(meta)), null, 2)}\n`);
    return { path, ...counts, sha256 };
  } catch (error) {
    if (!closed) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  } finally {
    for (const s of searches.values()) await s.objects.close();
  }
}

/** Reads forward-pairs.jsonl back, validated; a bad line is one usage error naming file and line. */
export async function loadForwardPairs(path: string): Promise<ForwardPairRecord[]> {
  checkManifestPath(path, '--pairs');
  const out: ForwardPairRecord[] = [];
  for await (const l of readJsonl(path)) {
    if (l.error) throw new UsageError(`${path}:${l.lineNumber}: ${l.error}`);
    const p = ForwardPairRecord.safeParse(l.value);
    if (!p.success) {
      const issue = p.error.issues[0]!;
      throw new UsageError(`${path}:${l.lineNumber}: not a forward-pairs record: ${issue.path.join('.') || 'record'}: ${issue.message}`);
    }
    out.push(p.data);
  }
  return out;
}
