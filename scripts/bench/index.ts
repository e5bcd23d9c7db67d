/**
 * `npm run bench`: runs every benchmark in scripts/bench/ (one child process each, so one
 * benchmark's memory does not affect the next) and prints their figures. Pass names to run a
 * subset: `npm run bench -- route resolve`.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const dir = resolve(import.meta.dirname);
const wanted = process.argv.slice(2);
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
  const r = await execa('node', ['--import', 'tsx', join(dir, `${name}.ts`)], { stdout: 'inherit', stderr: 'inherit', reject: false, cwd: resolve(dir, '../..') });
  if (r.exitCode !== 0) {
    failed += 1;
    process.stdout.write(`bench ${name} failed (exit ${r.exitCode})\n`);
  }
}
process.exit(failed > 0 ? 1 : 0);
