/**
 * `r2v export --summary` and `r2v baselines`: each baseline's accuracy over a manifest.
 */
import { readJsonl } from '../util/jsonl.js';
import { baselineAccuracy } from './index.js';

/** Formats accuracies as `name<TAB>correct/total<TAB>percent` lines. */
export function formatAccuracy(acc: ReadonlyMap<string, [number, number]>): string[] {
  return [...acc].map(([name, [c, t]]) => `${name}\t${c}/${t}\t${t === 0 ? '-' : `${((100 * c) / t).toFixed(1)}%`}`);
}

/** Reads a manifest written by export and returns one line per baseline, after a header naming the file. */
export async function manifestBaselineLines(path: string, label: string): Promise<string[]> {
  const records: { baselines?: unknown }[] = [];
  let n = 0;
  for await (const l of readJsonl(path)) {
    if (l.value && typeof l.value === 'object') {
      n += 1;
      const b = (l.value as { baselines?: unknown }).baselines;
      records.push({ baselines: b });
    }
  }
  return [`baselines over ${label} (${n} cases):`, ...formatAccuracy(baselineAccuracy(records)).map((x) => `  ${x}`)];
}
