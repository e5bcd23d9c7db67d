/**
 * Machine-readable output uses one naming convention, snake_case, as the manifests do. Converts
 * the camelCase identifier keys of a value (deeply); other keys (repository names, paths, test
 * ids, already snake_case names) are kept as they are.
 */
const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

export function snakeCase(key: string): string {
  return CAMEL.test(key) ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key;
}

export function snakeKeys<T>(value: T): unknown {
  if (Array.isArray(value)) return value.map((v) => snakeKeys(v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[snakeCase(k)] = snakeKeys(v);
  return out;
}
