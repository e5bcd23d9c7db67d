/**
 * Benchmark of the isolated command runner used by probes.
 *
 * 1. Start-up cost: `true` run 40 times through runIsolated (own process group, minimal env,
 *    user + network namespace where available) vs a plain execa('/bin/sh', ['-c', 'true']).
 * 2. Output capture: a command printing 64 MiB, captured by runIsolated (streaming SHA-256,
 *    1 MiB head + 4 KiB tail in memory) vs the naive way (execa buffers everything, then hashes
 *    it). Throughput, and the memory each result keeps alive after a full collection.
 *
 *   node --import tsx scripts/bench/probe-exec.ts
 */
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { networkIsolationAvailable, runIsolated } from '../../src/probe/exec.js';

const STARTS = 40;
const OUTPUT_MIB = 64;
const PRINT = `head -c ${OUTPUT_MIB * 1024 * 1024} /dev/zero | tr '\\0' 'x'`;

// A collectable heap makes "memory held by the result" a stable figure.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function memory(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers + m.external;
}

/** Wall time, and memory still held (after a full collection) while the result is alive. */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T; heldMiB: number }> {
  const before = memory();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  return { ms, value, heldMiB: (memory() - before) / 1024 / 1024 };
}

const cwd = await mkdtemp(join(tmpdir(), 'r2v-bench-probe-'));
try {
  const isolated = await networkIsolationAvailable();
  console.log(`network isolation available: ${isolated}`);

  const fast = await timed(async () => {
    for (let i = 0; i < STARTS; i += 1) await runIsolated({ command: 'true', cwd, timeoutMs: 10_000 });
  });
  const plain = await timed(async () => {
    for (let i = 0; i < STARTS; i += 1) await execa('/bin/sh', ['-c', 'true'], { cwd });
  });
  console.log(`start-up: runIsolated ${(fast.ms / STARTS).toFixed(1)} ms/run, plain sh ${(plain.ms / STARTS).toFixed(1)} ms/run, ratio ${(fast.ms / plain.ms).toFixed(2)}x`);

  const streamed = await timed(() => runIsolated({ command: PRINT, cwd, timeoutMs: 60_000 }));
  const naive = await timed(async () => {
    const r = await execa('/bin/sh', ['-c', PRINT], { cwd, encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 });
    return { digest: createHash('sha256').update(r.stdout).digest('hex'), stdout: r.stdout };
  });
  if (streamed.value.stdoutDigest !== naive.value.digest) throw new Error('digests differ: the benchmark is broken');
  const mibs = (ms: number): string => (OUTPUT_MIB / (ms / 1000)).toFixed(0);
  console.log(`capture ${OUTPUT_MIB} MiB: streamed ${mibs(streamed.ms)} MiB/s (result holds ${streamed.heldMiB.toFixed(1)} MiB), naive buffer+hash ${mibs(naive.ms)} MiB/s (result holds ${naive.heldMiB.toFixed(1)} MiB)`);
  console.log(`capture ratio: time ${(streamed.ms / naive.ms).toFixed(2)}x, memory held ${(streamed.heldMiB / Math.max(naive.heldMiB, 0.1)).toFixed(3)}x of naive`);
} finally {
  await rm(cwd, { recursive: true, force: true });
}
