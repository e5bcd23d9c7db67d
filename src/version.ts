import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The r2v version from package.json (`r2v --version`, manifest sidecars, shard metadata). */
export function r2vVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    cached = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  }
  return cached;
}
