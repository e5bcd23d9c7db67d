import type { Database } from 'better-sqlite3';
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
    const r = this.s.result.get(key) as Record<string, unknown> | undefined;
    return r ? toResult(r) : undefined;
  }

  /** Results sorted by repository then PR numbers; all repositories when `repos` is empty. */
  results(repos: readonly string[] = []): PairResultRow[] {
    const rows =
      repos.length === 0
        ? (this.s.results.all() as Record<string, unknown>[])
        : [...repos].sort().flatMap((r) => this.s.resultsOfRepo.all(r) as Record<string, unknown>[]);
    return rows.map(toResult);
  }

  members(key: string): PairMemberRow[] {
    return (this.s.members.all(key) as Record<string, unknown>[]).map((r) => ({
      key: r.key as string,
      pr: r.pr as number,
      baseSha: r.base_sha as string,
      headSha: r.head_sha as string,
      mergeBase: r.merge_base as string,
      codeFiles: JSON.parse(r.code_files as string) as string[],
      testFiles: JSON.parse(r.test_files as string) as string[],
      candidateTests: JSON.parse(r.candidate_tests as string) as string[],
      failToPass: JSON.parse(r.fail_to_pass as string) as string[],
      codePatchSha256: r.code_patch_sha256 as string,
      testPatchSha256: r.test_patch_sha256 as string,
    }));
  }

  runs(key: string): PairRunRow[] {
    return (this.s.runs.all(key) as Record<string, unknown>[]).map((r) => ({
      key: r.key as string,
      condition: r.condition as string,
      testId: r.test_id as string,
      repeat: r.repeat as number,
      tree: r.tree as string,
      outcome: r.outcome as string,
      exitCode: (r.exit_code as number | null) ?? null,
      timedOut: r.timed_out === 1,
      durationMs: r.duration_ms as number,
      stdoutDigest: r.stdout_digest as string,
      stderrDigest: r.stderr_digest as string,
      outputTail: r.output_tail as string,
    }));
  }

  patch(digest: string): Buffer | undefined {
    const r = this.s.patch.get(digest) as { content: Buffer } | undefined;
    return r?.content;
  }
}

function toResult(r: Record<string, unknown>): PairResultRow {
  return {
    key: r.key as string,
    repo: r.repo as string,
    prA: r.pr_a as number,
    prB: r.pr_b as number,
    why: r.why as string,
    status: r.status as 'valid' | 'rejected',
    reason: (r.reason as string | null) ?? null,
    tier: (r.tier as string | null) ?? null,
    tierBasis: (r.tier_basis as string | null) ?? null,
    baseCommit: (r.base_commit as string | null) ?? null,
    baseRule: (r.base_rule as string | null) ?? null,
    evidence: JSON.parse(r.evidence as string) as Record<string, unknown>,
  };
}
