import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The source tree the architecture tests read. */
export const SRC = resolve(import.meta.dirname, '../../../src');

/** Every .ts file under `root` (src/ by default), as paths relative to it with their text. */
export function sources(root: string = SRC): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) out.set(relative(root, p), readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return out;
}

/** The relative imports of a module (static, type-only, re-exports and dynamic), as paths relative to src/. */
export function importsOf(file: string, text: string): string[] {
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/gm),
    ...text.matchAll(/^\s*import\s+'(\.[^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ].map((m) => m[1]!);
  return specs.map((s) => relative(SRC, resolve(dirname(join(SRC, file)), s.replace(/\.js$/, '.ts'))));
}
