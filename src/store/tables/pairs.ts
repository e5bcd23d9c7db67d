import type { Database } from 'better-sqlite3';
import { allRows, flag, getRow, json, num, numOrNull, type Row, str, strOrNull } from '../row.js';
import { canonicalJson, sha256 } from '../../util/canonical.js';

/** Coupled-pair results (SQL of the pairs stage and its export). */
export interface PairResultRow {
  key: string;
  repo: string;
  prA: number;
  prB: number;
  why: string;
  status: 'valid' | 'rejected';
  reason: string | null;
  tier: string | null;
  tierBasis: string | null;
  baseCommit: string | null;
  baseRule: string | null;
  evidence: Record<string, unknown>;
}

export interface PairMemberRow {
  key: string;
  pr: number;
  baseSha: string;
  headSha: string;
  mergeBase: string;
  codeFiles: string[];
  testFiles: string[];
  candidateTests: string[];
  failToPass: string[];
  codePatchSha256: string;
  testPatchSha256: string;
}

export interface PairRunRow {
  key: string;
  condition: string;
  testId: string;
  repeat: number;
  tree: string;
  outcome: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  stdoutDigest: string;
  stderrDigest: string;
  outputTail: string;
}

export interface PairRecord {
  result: PairResultRow;
  members: PairMemberRow[];
  runs: PairRunRow[];
  patches: Buffer[];
}

/** The statements of PairTables, prepared once per instance. */
function preparePairTables(db: Database) {
  return {
    deleteResult: db.prepare('DELETE FROM pair_results WHERE key = ?'),
    deleteMembers: db.prepare('DELETE FROM pair_members WHERE key = ?'),
    deleteRuns: db.prepare('DELETE FROM pair_runs WHERE key = ?'),
    insertResult: db.prepare(`INSERT INTO pair_results (key, repo, pr_a, pr_b, why, status, reason, tier, tier_basis, base_commit, base_rule, evidence)
      VALUES (@key, @repo, @prA, @prB, @why, @status, @reason, @tier, @tierBasis, @baseCommit, @baseRule, @evidence)`),
    insertMember: db.prepare(`INSERT INTO pair_members (key, pr, base_sha, head_sha, merge_base, code_files, test_files, candidate_tests,
        fail_to_pass, code_patch_sha256, test_patch_sha256)
      VALUES (@key, @pr, @baseSha, @headSha, @mergeBase, @codeFiles, @testFiles, @candidateTests, @failToPass, @codePatchSha256, @testPatchSha256)`),
    insertRun: db.prepare(`INSERT INTO pair_runs (key, condition, test_id, repeat, tree, outcome, exit_code, timed_out, duration_ms,
        stdout_digest, stderr_digest, output_tail)
      VALUES (@key, @condition, @testId, @repeat, @tree, @outcome, @exitCode, @timedOut, @durationMs, @stdoutDigest, @stderrDigest, @outputTail)`),
    insertPatch: db.prepare('INSERT INTO pair_patches (sha256, content) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING'),
    result: db.prepare('SELECT * FROM pair_results WHERE key = ?'),
    results: db.prepare('SELECT * FROM pair_results ORDER BY repo, pr_a, pr_b'),
    resultsOfRepo: db.prepare('SELECT * FROM pair_results WHERE repo = ? ORDER BY pr_a, pr_b'),
    members: db.prepare('SELECT * FROM pair_members WHERE key = ? ORDER BY pr'),
    runs: db.prepare('SELECT * FROM pair_runs WHERE key = ? ORDER BY condition, test_id, repeat'),
    patch: db.prepare('SELECT content FROM pair_patches WHERE sha256 = ?'),
  };
}

export class PairTables {
  private readonly s: ReturnType<typeof preparePairTables>;
  constructor(private readonly db: Database) {
    this.s = preparePairTables(db);
  }

  /** Replaces everything stored for `record.result.key` (result, members, runs) and adds its patches. */
  replace(record: PairRecord): void {
    const key = record.result.key;
    this.s.deleteRuns.run(key);
    this.s.deleteMembers.run(key);
    this.s.deleteResult.run(key);
    this.s.insertResult.run({ ...record.result, evidence: canonicalJson(record.result.evidence) });
    for (const m of record.members) {
      this.s.insertMember.run({
        ...m,
        codeFiles: JSON.stringify(m.codeFiles),
        testFiles: JSON.stringify(m.testFiles),
        candidateTests: JSON.stringify(m.candidateTests),
        failToPass: JSON.stringify(m.failToPass),
      });
    }
    for (const r of record.runs) this.s.insertRun.run({ ...r, timedOut: r.timedOut ? 1 : 0 });
    for (const p of record.patches) this.s.insertPatch.run(sha256(p), p);
  }

  result(key: string): PairResultRow | undefined {
    const r = getRow(this.s.result, key);
    return r ? toResult(r) : undefined;
  }

  /** Results sorted by repository then PR numbers; all repositories when `repos` is empty. */
  results(repos: readonly string[] = []): PairResultRow[] {
    const rows =
      repos.length === 0
        ? allRows(this.s.results)
        : [...repos].sort().flatMap((r) => allRows(this.s.resultsOfRepo, r));
    return rows.map(toResult);
  }

  members(key: string): PairMemberRow[] {
    return allRows(this.s.members, key).map((r) => ({
      key: str(r, 'key'),
      pr: num(r, 'pr'),
      baseSha: str(r, 'base_sha'),
      headSha: str(r, 'head_sha'),
      mergeBase: str(r, 'merge_base'),
      codeFiles: json<string[]>(r, 'code_files'),
      testFiles: json<string[]>(r, 'test_files'),
      candidateTests: json<string[]>(r, 'candidate_tests'),
      failToPass: json<string[]>(r, 'fail_to_pass'),
      codePatchSha256: str(r, 'code_patch_sha256'),
      testPatchSha256: str(r, 'test_patch_sha256'),
    }));
  }

  runs(key: string): PairRunRow[] {
    return allRows(this.s.runs, key).map((r) => ({
      key: str(r, 'key'),
      condition: str(r, 'condition'),
      testId: str(r, 'test_id'),
      repeat: num(r, 'repeat'),
      tree: str(r, 'tree'),
      outcome: str(r, 'outcome'),
      exitCode: numOrNull(r, 'exit_code'),
      timedOut: flag(r, 'timed_out'),
      durationMs: num(r, 'duration_ms'),
      stdoutDigest: str(r, 'stdout_digest'),
      stderrDigest: str(r, 'stderr_digest'),
      outputTail: str(r, 'output_tail'),
    }));
  }

  patch(digest: string): Buffer | undefined {
    const r = this.s.patch.get(digest) as { content: Buffer } | undefined;
    return r?.content;
  }
}

function toResult(r: Row): PairResultRow {
  return {
    key: str(r, 'key'),
    repo: str(r, 'repo'),
    prA: num(r, 'pr_a'),
    prB: num(r, 'pr_b'),
    why: str(r, 'why'),
    status: r.status as 'valid' | 'rejected',
    reason: strOrNull(r, 'reason'),
    tier: strOrNull(r, 'tier'),
    tierBasis: strOrNull(r, 'tier_basis'),
    baseCommit: strOrNull(r, 'base_commit'),
    baseRule: strOrNull(r, 'base_rule'),
    evidence: json<Record<string, unknown>>(r, 'evidence'),
  };
}
