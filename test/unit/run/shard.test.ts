import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { parseShardSpec, planShards, reposOfShard, resolveShard, shardOf, tokenEnvFor } from '../../../src/run/shard.js';

const names = Array.from({ length: 200 }, (_, i) => `owner${i % 7}/repo-${i}`);

describe('shard assignment', () => {
  it('is the first 8 hex digits of sha256(lower-case name) mod N, whatever the case of the name', () => {
    const expected = Number.parseInt(createHash('sha256').update('acme/widgets').digest('hex').slice(0, 8), 16) % 5;
    expect(shardOf('acme/widgets', 5)).toBe(expected);
    expect(shardOf('ACME/Widgets', 5)).toBe(expected);
    expect(shardOf('acme/widgets', 1)).toBe(0);
  });

  it('puts every repository in exactly one shard of the plan, and the plan agrees with reposOfShard', () => {
    const plan = planShards(names, 4);
    expect(plan.shards).toBe(4);
    expect(plan.repos).toBe(200);
    const all = plan.plan.flatMap((p) => p.repos);
    expect(all.slice().sort()).toEqual(names.slice().sort());
    expect(new Set(all).size).toBe(200);
    for (const p of plan.plan) {
      expect(p.repos).toEqual(reposOfShard([...names].sort(), { index: p.shard, count: 4 }));
      expect(p.repos.length).toBeGreaterThan(20); // 200 names over 4 shards: none starves
    }
  });
});

describe('parseShardSpec and resolveShard', () => {
  it('reads K/N with K from 0 and refuses anything else with one line naming the input', () => {
    expect(parseShardSpec('--shard', '2/3')).toMatchObject({ index: 2, count: 3 });
    expect(() => parseShardSpec('--shard', '3/3')).toThrow(/--shard 3\/3: shard index 3 is outside 0\.\.2 \(shards are numbered from 0\)/);
    expect(() => parseShardSpec('--shard', '1')).toThrow(/--shard 1: expected K\/N/);
    expect(() => parseShardSpec('--shard', 'a/3')).toThrow(/shard index must be an integer/);
    expect(() => parseShardSpec('--shard', '0/0')).toThrow(/number of shards must be an integer from 1/);
  });

  it('prefers --shard, then R2V_SHARD, then JOB_COMPLETION_INDEX with --shards, then Slurm; names its source', () => {
    expect(resolveShard({}, {})).toBeNull();
    expect(resolveShard({ shard: '1/2' }, { R2V_SHARD: '0/2' })).toMatchObject({ index: 1, count: 2, source: '--shard' });
    expect(resolveShard({}, { R2V_SHARD: '0/2', JOB_COMPLETION_INDEX: '1' })).toMatchObject({ index: 0, count: 2, source: 'R2V_SHARD=0/2' });
    expect(resolveShard({ shards: 4 }, { JOB_COMPLETION_INDEX: '3' })).toMatchObject({ index: 3, count: 4, source: 'JOB_COMPLETION_INDEX=3' });
    expect(() => resolveShard({}, { JOB_COMPLETION_INDEX: '3' })).toThrow(/JOB_COMPLETION_INDEX=3 is set but the number of shards is not: pass --shards N/);
    expect(() => resolveShard({ shards: 3 }, { JOB_COMPLETION_INDEX: '3' })).toThrow(/outside 0\.\.2/);
    expect(() => resolveShard({ shards: 3 }, {})).toThrow(/--shards 3 needs a shard index/);
    expect(() => resolveShard({ shard: '0/2', shards: 3 }, {})).toThrow(/disagree/);
  });

  it('counts Slurm array ids from SLURM_ARRAY_TASK_MIN, so 1-based and 0-based arrays give the same shards', () => {
    const oneBased = { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '4', SLURM_ARRAY_TASK_COUNT: '4' };
    expect(resolveShard({}, oneBased)).toMatchObject({ index: 0, count: 4 });
    expect(resolveShard({}, { ...oneBased, SLURM_ARRAY_TASK_ID: '4' })).toMatchObject({ index: 3, count: 4 });
    expect(resolveShard({}, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '2' })).toMatchObject({ index: 0, count: 2 });
    expect(() => resolveShard({}, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '6', SLURM_ARRAY_TASK_COUNT: '4' })).toThrow(/contiguous range/);
    expect(() => resolveShard({}, { SLURM_ARRAY_TASK_ID: '2' })).toThrow(/SLURM_ARRAY_TASK_COUNT is not/);
    expect(resolveShard({ shards: 3 }, { SLURM_ARRAY_TASK_ID: '2' })).toMatchObject({ index: 2, count: 3 });
  });
});

describe('tokenEnvFor', () => {
  it('gives shard K the (K mod M)-th variable', () => {
    const envs = ['TOKEN_A', 'TOKEN_B'];
    expect([0, 1, 2, 3].map((k) => tokenEnvFor(envs, { index: k }))).toEqual(['TOKEN_A', 'TOKEN_B', 'TOKEN_A', 'TOKEN_B']);
    expect(tokenEnvFor(envs, null)).toBe('TOKEN_A');
    expect(tokenEnvFor(['ONLY'], { index: 5 })).toBe('ONLY');
  });
});
