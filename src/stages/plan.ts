import { digestOf } from '../util/canonical.js';
import type { PlannedItem } from './types.js';

/**
 * The digest of an item's whole input. `plan` reads the upstream rows once and carries them in the
 * input; `process` uses only the input, so what decides staleness is exactly what is used. The
 * input must be plain data (what canonical JSON keeps): a Map, Set, Date or function would digest
 * as if empty, so it is refused.
 */
export function digestInput(input: unknown): string {
  assertPlain(input, 'input');
  return digestOf(input);
}

/** An item of `plan` whose digest is that of its whole input (see digestInput). */
export function planItem<P>(key: string, repo: string, input: P): PlannedItem<P> {
  return { key, repo, inputDigest: digestInput(input), input };
}

function assertPlain(value: unknown, path: string): void {
  if (value === null || value === undefined) return;
  const t = typeof value;
  if (t === 'string' || t === 'boolean') return;
  if (t === 'number') {
    if (!Number.isFinite(value)) throw new Error(`stage input ${path} is ${String(value)}, which canonical JSON cannot keep`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertPlain(v, `${path}[${i}]`));
    return;
  }
  if (t === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      throw new Error(`stage input ${path} is a ${(value as object).constructor?.name ?? 'non-plain object'}, not plain data`);
    }
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) assertPlain(v, `${path}.${k}`);
    return;
  }
  throw new Error(`stage input ${path} is a ${t}, not plain data`);
}
