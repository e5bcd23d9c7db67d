import { readFileSync } from 'node:fs';

/** The r2v version from package.json (recorded in manifest sidecars). */
export function r2vVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
