/** Git object ids computed without a repository, the way git computes them (SHA-1 over a typed header and the body). */
import { createHash } from 'node:crypto';

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** The raw 20-byte id git gives `body` stored as an object of `type`; a string body is taken as UTF-8. */
export function gitObjectDigest(type: GitObjectType, body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return createHash('sha1').update(`${type} ${bytes.length}\0`).update(bytes).digest();
}

/** The id (40 hex digits) git gives `body` stored as an object of `type`. */
export function gitObjectId(type: GitObjectType, body: string | Buffer): string {
  return gitObjectDigest(type, body).toString('hex');
}

/**
 * A birthday search for two commit objects whose ids share their first `length` hex digits:
 * `candidate(i)` is the raw commit object for i = 0, 1, 2, …; the first collision whose prefix
 * `accept`s wins (a refused one replaces the earlier body under that prefix). Deterministic:
 * the same candidates give the same pair. Null when none is found below `limit`.
 */
export function findCommitPrefixCollision(
  candidate: (i: number) => string,
  length: number,
  options: { accept?: (prefix: string) => boolean; limit?: number } = {},
): { prefix: string; bodies: [string, string] } | null {
  const accept = options.accept ?? (() => true);
  const limit = options.limit ?? Infinity;
  const seen = new Map<string, string>();
  for (let i = 0; i < limit; i += 1) {
    const body = candidate(i);
    const prefix = gitObjectId('commit', body).slice(0, length);
    const other = seen.get(prefix);
    if (other !== undefined && accept(prefix)) return { prefix, bodies: [other, body] };
    seen.set(prefix, body);
  }
  return null;
}
