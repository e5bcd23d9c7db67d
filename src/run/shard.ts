/**
 * Sharding by repository. A shard is `K/N` with K numbered from 0 (0 ≤ K < N); a repository
 * belongs to shard `hash(lower-case owner/name) mod N`, where hash is the first 8 hex digits of
 * its SHA-256 read as an unsigned integer. The assignment depends only on the name and N, so
 * every process of a run (and `r2v shard plan`) agrees on it without talking to the others.
 */
import { UsageError } from '../errors.js';
import { sha256 } from '../util/canonical.js';

export interface Shard {
  /** 0-based index. */
  readonly index: number;
  readonly count: number;
  /** Where the shard came from, for the log: `--shard`, `R2V_SHARD`, `JOB_COMPLETION_INDEX`, `SLURM_ARRAY_TASK_ID`. */
  readonly source: string;
}

export const MAX_SHARDS = 10_000;

/** The shard (0-based) a repository belongs to among `count` shards. */
export function shardOf(repo: string, count: number): number {
  return Number.parseInt(sha256(repo.toLowerCase()).slice(0, 8), 16) % count;
}

export function shardLabel(shard: Pick<Shard, 'index' | 'count'>): string {
  return `${shard.index}/${shard.count}`;
}

function count(what: string, value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > MAX_SHARDS) {
    throw new UsageError(`${what}: the number of shards must be an integer from 1 to ${MAX_SHARDS}, got "${value}"`);
  }
  return Number(value);
}

function index(what: string, value: string, n: number, offset = 0): number {
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${what}: shard index must be an integer, got "${value}"`);
  const k = Number(value) - offset;
  if (k < 0 || k >= n) {
    const range = offset === 0 ? `0..${n - 1}` : `${offset}..${offset + n - 1}`;
    throw new UsageError(`${what}: shard index ${value} is outside ${range} (shards are numbered from ${offset === 0 ? '0' : offset})`);
  }
  return k;
}

/** Parses `K/N` (K from 0). `what` names the input in messages (`--shard`, `R2V_SHARD`). */
export function parseShardSpec(what: string, spec: string): Shard {
  const m = /^\s*([^/]+)\/([^/]+)\s*$/.exec(spec);
  if (!m) throw new UsageError(`${what} ${spec}: expected K/N, e.g. 0/4 (K numbered from 0)`);
  const n = count(`${what} ${spec}`, m[2]!);
  return { index: index(`${what} ${spec}`, m[1]!, n), count: n, source: what };
}

/**
 * The shard of this process: `--shard K/N` if given, else the first of
 * - `R2V_SHARD=K/N` (K from 0);
 * - `JOB_COMPLETION_INDEX` (Kubernetes Indexed Job, 0-based) with the count from `--shards N`;
 * - `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, counted from `SLURM_ARRAY_TASK_MIN`
 *   (so `--array=1-4` and `--array=0-3` both give shards 0..3; a stepped array is refused).
 * Returns null when nothing names a shard (the whole run in one process).
 */
export function resolveShard(opts: { shard?: string; shards?: number }, env: Readonly<Record<string, string | undefined>>): Shard | null {
  if (opts.shard !== undefined) {
    const s = parseShardSpec('--shard', opts.shard);
    if (opts.shards !== undefined && opts.shards !== s.count) throw new UsageError(`--shard ${opts.shard} and --shards ${opts.shards} disagree on the number of shards`);
    return s;
  }
  const r2v = env.R2V_SHARD;
  if (r2v !== undefined && r2v.trim() !== '') {
    const s = parseShardSpec('R2V_SHARD', r2v);
    return { ...s, source: `R2V_SHARD=${r2v.trim()}` };
  }
  const job = env.JOB_COMPLETION_INDEX;
  if (job !== undefined && job.trim() !== '') {
    if (opts.shards === undefined) throw new UsageError(`JOB_COMPLETION_INDEX=${job} is set but the number of shards is not: pass --shards N (the Job's completions)`);
    return { index: index(`JOB_COMPLETION_INDEX=${job}`, job, opts.shards), count: opts.shards, source: `JOB_COMPLETION_INDEX=${job.trim()}` };
  }
  const task = env.SLURM_ARRAY_TASK_ID;
  if (task !== undefined && task.trim() !== '') {
    const total = env.SLURM_ARRAY_TASK_COUNT;
    const n = total !== undefined && total.trim() !== '' ? count(`SLURM_ARRAY_TASK_COUNT=${total}`, total) : opts.shards;
    if (n === undefined) throw new UsageError(`SLURM_ARRAY_TASK_ID=${task} is set but SLURM_ARRAY_TASK_COUNT is not: pass --shards N`);
    if (opts.shards !== undefined && opts.shards !== n) throw new UsageError(`SLURM_ARRAY_TASK_COUNT=${total} and --shards ${opts.shards} disagree on the number of shards`);
    const min = env.SLURM_ARRAY_TASK_MIN?.trim() ? Number(env.SLURM_ARRAY_TASK_MIN) : 0;
    const max = env.SLURM_ARRAY_TASK_MAX?.trim() ? Number(env.SLURM_ARRAY_TASK_MAX) : undefined;
    if (!Number.isInteger(min)) throw new UsageError(`SLURM_ARRAY_TASK_MIN=${env.SLURM_ARRAY_TASK_MIN}: not an integer`);
    if (max !== undefined && max - min + 1 !== n) {
      throw new UsageError(`SLURM_ARRAY_TASK_MIN=${min}, SLURM_ARRAY_TASK_MAX=${max} and SLURM_ARRAY_TASK_COUNT=${n}: the array must be a contiguous range (no step, no list)`);
    }
    return { index: index(`SLURM_ARRAY_TASK_ID=${task}`, task, n, min), count: n, source: `SLURM_ARRAY_TASK_ID=${task.trim()} (min ${min}, count ${n})` };
  }
  if (opts.shards !== undefined) throw new UsageError(`--shards ${opts.shards} needs a shard index: --shard K/N, R2V_SHARD, JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID`);
  return null;
}

/** The repositories of one shard, in the given order. */
export function reposOfShard(repos: readonly string[], shard: Pick<Shard, 'index' | 'count'>): string[] {
  return repos.filter((r) => shardOf(r, shard.count) === shard.index);
}

export interface ShardPlan {
  readonly shards: number;
  readonly repos: number;
  readonly plan: { readonly shard: number; readonly repos: string[] }[];
}

/** Every shard with its repositories (sorted), for `r2v shard plan`. */
export function planShards(repos: readonly string[], n: number): ShardPlan {
  const sorted = [...repos].sort();
  return {
    shards: n,
    repos: sorted.length,
    plan: Array.from({ length: n }, (_, k) => ({ shard: k, repos: reposOfShard(sorted, { index: k, count: n }) })),
  };
}

/** The token variable shard K uses among the configured ones: K mod M (one token: always it). */
export function tokenEnvFor(tokenEnvs: readonly string[], shard: Pick<Shard, 'index'> | null): string {
  if (tokenEnvs.length === 0) throw new UsageError('github.token_env: no token variable configured');
  return tokenEnvs[(shard?.index ?? 0) % tokenEnvs.length]!;
}
