#!/usr/bin/env node
// Entry point: runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm ci` runs).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('r2v: not built: dist/cli.js is missing (run npm run build)\n');
  process.exitCode = 3;
} else {
  const { runCli } = await import(cli.href);
  process.exitCode = await runCli(process.argv.slice(2));
}
