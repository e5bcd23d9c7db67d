/**
 * `npm run bench`: runs every benchmark in scripts/bench/ (one child process each, so one
 * benchmark's memory does not affect the next) and prints their figures. Pass names to run a
 * subset: `npm run bench -- route resolve`; options after the names go to each selected benchmark
 * (`npm run bench -- backward-corpus --corpus PATH`).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const dir = resolve(import.meta.dirname);
// Leading names select benchmarks; everything from the first option on is passed to each of them.
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const wanted = firstOption === -1 ? args : args.slice(0, firstOption);
const passed = firstOption === -1 ? [] : args.slice(firstOption);
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const selected = wanted.length > 0 ? all.filter((n) => wanted.includes(n)) : all;
const unknown = wanted.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown benchmark(s): ${unknown.join(', ')} (available: ${all.join(', ')})\n`);
  process.exit(2);
}
let failed = 0;
for (const name of selected) {
  process.stdout.write(`\n== ${name} ==\n`);
  const r = await execa('node', ['--import', 'tsx', join(dir, `${name}.ts`), ...passed], { stdout: 'inherit', stderr: 'inherit', reject: false, cwd: resolve(dir, '../..') });
  if (r.exitCode !== 0) {
    failed += 1;
    process.stdout.write(`bench ${name} failed (exit ${r.exitCode})\n`);
  }
}
process.exit(failed > 0 ? 1 : 0);
