import { createHash } from 'node:crypto';

/** Canonical JSON: object keys sorted (by UTF-16 code unit order), no whitespace, no undefined. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Digest of any JSON-able value, via its canonical form. */
export function digestOf(value: unknown): string {
  return sha256(canonicalJson(value));
}

/** The index just past the JSON string starting at `text[start]` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i < 0) return -1;
    let slashes = 0;
    for (let k = i - 1; text.charCodeAt(k) === 92; k -= 1) slashes += 1;
    if (slashes % 2 === 0) return i + 1;
  }
}

/** The index of the `,` or closing bracket that ends the JSON value starting at `start`, -1 when malformed. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i);
      if (i < 0) return -1;
      continue;
    }
    if (c === 123 || c === 91) depth += 1;
    else if (c === 125 || c === 93) {
      if (depth === 0) return i;
      depth -= 1;
    } else if (c === 44 && depth === 0) return i;
    i += 1;
  }
  return -1;
}

/** Whether a key is an array index, which JavaScript objects (and so canonicalJson) put first, in numeric order. */
function isIndexKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** The order of keys in canonicalJson's output: array-index keys numerically, then the others by code unit. */
function keyBefore(a: string, b: string): boolean {
  const ia = isIndexKey(a);
  const ib = isIndexKey(b);
  if (ia !== ib) return ia;
  return ia ? Number(a) < Number(b) : a < b;
}

/**
 * The canonical JSON of `{ ...JSON.parse(text), ...fields }` where `text` is the canonical JSON
 * of an object: the new top-level members are spliced in at their sorted places without parsing
 * and re-serializing the rest (an export writes millions of stored records this way). A field
 * whose value is undefined removes the member. Text that is not an object falls back to parsing.
 */
export function withCanonicalFields(text: string, fields: Readonly<Record<string, unknown>>): string {
  const slow = (): string => canonicalJson({ ...(JSON.parse(text) as Record<string, unknown>), ...fields });
  if (text.charCodeAt(0) !== 123 || text.charCodeAt(text.length - 1) !== 125) return slow();
  const members: { key: string; text: string }[] = [];
  let i = 1;
  while (i < text.length - 1) {
    if (text.charCodeAt(i) !== 34) return slow();
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0 || text.charCodeAt(keyEnd) !== 58) return slow();
    const end = valueEnd(text, keyEnd + 1);
    if (end < 0) return slow();
    members.push({ key: JSON.parse(text.slice(i, keyEnd)) as string, text: text.slice(i, end) });
    if (end === text.length - 1) break;
    if (text.charCodeAt(end) !== 44) return slow();
    i = end + 1;
  }
  const added = Object.keys(fields).sort((a, b) => (keyBefore(a, b) ? -1 : keyBefore(b, a) ? 1 : 0));
  const parts: string[] = [];
  let a = 0;
  for (const m of members) {
    while (a < added.length && keyBefore(added[a]!, m.key)) {
      const v = fields[added[a]!];
      if (v !== undefined) parts.push(`${JSON.stringify(added[a])}:${canonicalJson(v)}`);
      a += 1;
    }
    if (Object.hasOwn(fields, m.key)) continue;
    parts.push(m.text);
  }
  for (; a < added.length; a += 1) {
    const v = fields[added[a]!];
    if (v !== undefined) parts.push(`${JSON.stringify(added[a])}:${canonicalJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}
