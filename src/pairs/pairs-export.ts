/**
 * Export of validated pairs in the STALE instance format (DESIGN.md §1.3):
 *   instances/<owner>__<name>.jsonl   coupled pairs, one canonical JSON record per line
 *   control.jsonl                     control pairs of every exported repository
 *   patches/<owner>__<name>/pr<N>/{code.patch,test.patch,meta.json}
 *   meta.json                         counts by tier and by reason, schema version, sha256 of each JSONL
 * Deterministic: sorted records, canonical JSON, no timestamps; the same database gives the
 * same bytes. Written to a temporary sibling directory first, then moved into place.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Store } from '../store/db.js';
import { MinerError, UsageError } from '../errors.js';
import { PairTables, type PairMemberRow, type PairResultRow } from '../store/tables/pairs.js';
import { canonicalJson, sha256 } from '../util/canonical.js';

export const PAIRS_SCHEMA_VERSION = 1;

export interface PairInstance {
  readonly id: string;
  readonly repo: string;
  readonly tier: 'coupled' | 'control';
  readonly base_commit: string;
  readonly prs: readonly [number, number];
  readonly per_pr: Record<string, { readonly code_files: readonly string[]; readonly fail_to_pass: readonly string[] }>;
}

export interface PairsExportSummary {
  readonly outDir: string;
  readonly coupled: number;
  readonly control: number;
  readonly rejected: number;
  /** Relative path → sha256 of every JSONL written. */
  readonly files: Readonly<Record<string, string>>;
}

/** `owner__name`: the file-name form of a repository. */
export function repoSlug(repo: string): string {
  return repo.replace('/', '__');
}

/**
 * Instance id `owner__name__A_B`: DESIGN.md §1.3's `owner__A_B` with the repository name, so two
 * repositories of one owner never share an id.
 */
export function instanceId(repo: string, a: number, b: number): string {
  return `${repoSlug(repo)}__${a}_${b}`;
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

export function toInstance(result: PairResultRow, members: readonly PairMemberRow[]): PairInstance {
  const perPr: PairInstance['per_pr'] = {};
  for (const m of members) perPr[String(m.pr)] = { code_files: sorted(m.codeFiles), fail_to_pass: sorted(m.failToPass) };
  return {
    id: instanceId(result.repo, result.prA, result.prB),
    repo: result.repo,
    tier: result.tier as 'coupled' | 'control',
    base_commit: result.baseCommit!,
    prs: [result.prA, result.prB],
    per_pr: perPr,
  };
}

const jsonl = (records: readonly unknown[]): string => records.map((r) => `${canonicalJson(r)}\n`).join('');

/** Writes the pairs manifests of `repos` (all repositories with results when empty) under `outDir`. */
export async function exportPairs(store: Store, outDir: string, repos: readonly string[] = []): Promise<PairsExportSummary> {
  const out = resolve(outDir);
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`${outDir}: output path exists and is not a directory`);
  const tables = store.pairs;
  const results = tables.results(repos);
  const repoList = [...new Set([...repos, ...results.map((r) => r.repo)])].sort();

  const files = new Map<string, Buffer | string>();
  const instancesByRepo = new Map<string, PairInstance[]>(repoList.map((r) => [r, []]));
  const control: PairInstance[] = [];
  const byReason: Record<string, number> = {};
  const patchMembers = new Map<string, PairMemberRow & { repo: string }>();
  for (const r of results) {
    if (r.status !== 'valid') {
      const reason = r.reason ?? 'unknown';
      byReason[reason] = (byReason[reason] ?? 0) + 1;
      continue;
    }
    if (r.tier !== 'coupled' && r.tier !== 'control') throw new MinerError('internal', `${r.key}: valid pair without a tier`);
    const members = tables.members(r.key);
    const instance = toInstance(r, members);
    (r.tier === 'coupled' ? instancesByRepo.get(r.repo)! : control).push(instance);
    for (const m of members) {
      const k = `${r.repo}#${m.pr}`;
      if (!patchMembers.has(k)) patchMembers.set(k, { ...m, repo: r.repo });
    }
  }
  const byId = (x: PairInstance, y: PairInstance): number =>
    x.repo < y.repo ? -1 : x.repo > y.repo ? 1 : x.prs[0] - y.prs[0] || x.prs[1] - y.prs[1];
  const digests: Record<string, string> = {};
  for (const [repo, list] of instancesByRepo) {
    const path = `instances/${repoSlug(repo)}.jsonl`;
    const text = jsonl(list.sort(byId));
    files.set(path, text);
    digests[path] = sha256(text);
  }
  const controlText = jsonl(control.sort(byId));
  files.set('control.jsonl', controlText);
  digests['control.jsonl'] = sha256(controlText);

  for (const m of [...patchMembers.values()]) {
    const dir = `patches/${repoSlug(m.repo)}/pr${m.pr}`;
    const code = tables.patch(m.codePatchSha256);
    const test = tables.patch(m.testPatchSha256);
    if (code === undefined || test === undefined) throw new MinerError('internal', `${m.repo}#${m.pr}: stored patch missing`);
    files.set(`${dir}/code.patch`, code);
    files.set(`${dir}/test.patch`, test);
    const meta = {
      repo: m.repo,
      number: m.pr,
      base_sha: m.baseSha,
      head_sha: m.headSha,
      merge_base: m.mergeBase,
      code_files: sorted(m.codeFiles),
      test_files: sorted(m.testFiles),
      candidate_tests: sorted(m.candidateTests),
      code_patch_sha256: m.codePatchSha256,
      test_patch_sha256: m.testPatchSha256,
    };
    files.set(`${dir}/meta.json`, `${canonicalJson(meta)}\n`);
  }
  const coupled = [...instancesByRepo.values()].reduce((n, l) => n + l.length, 0);
  const rejected = Object.values(byReason).reduce((n, c) => n + c, 0);
  const sidecar = {
    schema_version: PAIRS_SCHEMA_VERSION,
    kind: 'pairs',
    repos: repoList,
    counts: { pairs: results.length, by_tier: { coupled, control: control.length }, rejected, by_reason: byReason },
    patches: patchMembers.size,
    files: digests,
  };
  files.set('meta.json', `${canonicalJson(sidecar)}\n`);

  await writeAtomically(out, files);
  return { outDir: out, coupled, control: control.length, rejected, files: digests };
}

/** Owned entries of the output directory; only these are replaced. */
const OWNED = ['instances', 'patches', 'control.jsonl', 'meta.json'];

async function writeAtomically(out: string, files: ReadonlyMap<string, Buffer | string>): Promise<void> {
  await mkdir(dirname(out), { recursive: true });
  const staging = await mkdtemp(join(dirname(out), `.${basename(out)}.tmp-`));
  try {
    await mkdir(join(staging, 'instances'), { recursive: true });
    await mkdir(join(staging, 'patches'), { recursive: true });
    for (const [path, content] of [...files].sort(([x], [y]) => (x < y ? -1 : 1))) {
      await mkdir(dirname(join(staging, path)), { recursive: true });
      await writeFile(join(staging, path), content);
    }
    await mkdir(out, { recursive: true });
    for (const entry of OWNED) {
      await rm(join(out, entry), { recursive: true, force: true });
      await rename(join(staging, entry), join(out, entry));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
