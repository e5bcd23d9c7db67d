#!/usr/bin/env node
// Entry point: runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm ci` runs):
// the bundle (dist/r2v-bundle.js, a few files to load) when present, else the compiled modules.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/r2v-bundle.js', import.meta.url);
const cli = existsSync(bundle) ? bundle : new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('r2v: not built: dist/cli.js is missing (run npm run build)\n');
  process.exitCode = 3;
} else {
  const { runCli } = await import(cli.href);
  process.exitCode = await runCli(process.argv.slice(2));
}
