/**
 * Difficulty labels proposed by rules, each with the evidence it rests on. A reviewer may
 * override one (`r2v review label`); the label then says `proposed_by: review`. Pure.
 *
 * - Backward locality: `local` when the report names a file of a component the gold commit
 *   touches (component = the configured `repos[].components` entry, else the top-level
 *   directory; files at the root form the component "/"),
 *   `cross` otherwise (the report names other components, or none).
 * - Backward staging: `staged` when the visible history between gold and cutoff holds earlier
 *   fix-like commits (subject says fix or revert) touching the gold's files, `direct` otherwise.
 * - Forward staging: `direct` when the issue text names a changed file (path or file name), a
 *   changed file's directory, or a gold workflow; `staged` otherwise.
 */

export const LABEL_RULES_VERSION = 'labels/1';

export type ProposedBy = 'rule' | 'review';

export interface Label<V extends string = string> {
  value: V;
  proposed_by: ProposedBy;
  evidence: string;
}

export type Locality = 'local' | 'cross';
export type Staging = 'direct' | 'staged';

/** The label names and their values, per task (what a review override may set). */
export const LABEL_VALUES = {
  backward: { locality: ['local', 'cross'], staging: ['direct', 'staged'] },
  forward: { staging: ['direct', 'staged'] },
} as const;

/** A configured component map: component name → path prefixes (`repos[].components`). */
export type ComponentMap = Readonly<Record<string, readonly string[]>>;

/**
 * The component of a path: the configured component with the longest prefix matching it (the
 * path itself or a directory above it), else its top-level directory ("/" for a root file).
 */
export function componentOf(path: string, map?: ComponentMap): string {
  if (map) {
    let best: { name: string; len: number } | null = null;
    for (const name of Object.keys(map).sort()) {
      for (const raw of map[name]!) {
        const prefix = raw.replace(/\/+$/, '');
        if ((path === prefix || path.startsWith(`${prefix}/`)) && (!best || prefix.length > best.len)) best = { name, len: prefix.length };
      }
    }
    if (best) return best.name;
  }
  const i = path.indexOf('/');
  return i < 0 ? '/' : path.slice(0, i);
}

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const dirname = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const list = (xs: readonly string[], n = 5): string => (xs.length > n ? `${xs.slice(0, n).join(', ')}, …` : xs.join(', '));

/** Path-like words of a text: `a/b.c`, `dir/sub/`, `name.ext`. */
export function pathMentions(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z0-9_.\-/]+/g)) {
    const w = m[0].replace(/^\.\//, '').replace(/[.\-]+$/, '');
    if (w.length < 3) continue;
    if (w.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(w)) out.add(w.replace(/\/+$/, ''));
  }
  return [...out].sort();
}

/** Known paths a mention designates: the path, a path ending in it, a file of that name, or files under it. */
function resolveMention(m: string, known: readonly string[]): string[] {
  const hasSlash = m.includes('/');
  return known.filter((p) => p === m || p.endsWith(`/${m}`) || p.startsWith(`${m}/`) || (!hasSlash && basename(p) === m));
}

export function backwardLocality(input: { report: string; knownPaths: readonly string[]; goldPaths: readonly string[]; components?: ComponentMap }): Label<Locality> {
  const of = (p: string): string => componentOf(p, input.components);
  const goldComponents = [...new Set(input.goldPaths.map(of))].sort();
  const named = new Map<string, string>();
  for (const m of pathMentions(input.report)) {
    for (const p of resolveMention(m, input.knownPaths)) if (!named.has(of(p))) named.set(of(p), m);
  }
  const shared = goldComponents.filter((c) => named.has(c));
  if (shared.length > 0) {
    return { value: 'local', proposed_by: 'rule', evidence: `the report names ${list(shared.map((c) => `${named.get(c)} (${c})`))}; the gold touches ${list(goldComponents)}` };
  }
  const reportComponents = [...named.keys()].sort();
  return {
    value: 'cross',
    proposed_by: 'rule',
    evidence: reportComponents.length > 0
      ? `the report names ${list(reportComponents)}; the gold touches ${list(goldComponents)}`
      : `the report names no file of the repository; the gold touches ${list(goldComponents)}`,
  };
}

const FIX_LIKE = /\b(fix|fixes|fixed|fixing|revert|reverts|reverted|reverting)\b/i;

export function backwardStaging(input: {
  goldPaths: readonly string[];
  /** The non-merge commits in gold..cutoff (newest first or any order). */
  between: readonly { sha: string; subject: string; paths: readonly string[] }[];
}): Label<Staging> {
  const gold = new Set(input.goldPaths);
  const hits = input.between.filter((c) => FIX_LIKE.test(c.subject) && c.paths.some((p) => gold.has(p)));
  if (hits.length === 0) {
    return { value: 'direct', proposed_by: 'rule', evidence: `no fix or revert commit touches the gold's files in the ${input.between.length} commits between gold and cutoff` };
  }
  const shown = hits.slice(0, 3).map((c) => `${c.sha.slice(0, 12)} "${c.subject}"`);
  return { value: 'staged', proposed_by: 'rule', evidence: `${hits.length} fix-like commit(s) touch the gold's files between gold and cutoff: ${shown.join('; ')}` };
}

export function forwardStaging(input: { issueText: string; changedPaths: readonly string[]; workflows: readonly string[] }): Label<Staging> {
  const text = input.issueText.toLowerCase();
  const found: string[] = [];
  const names = (p: string): string[] => {
    const out = [p];
    const b = basename(p);
    if (b !== p && b.length >= 4 && b.includes('.')) out.push(b);
    const d = dirname(p);
    if (d.includes('/')) out.push(d);
    if (d.length >= 2) out.push(`${d}/`);
    return out;
  };
  for (const p of [...input.changedPaths, ...input.workflows]) {
    const hit = names(p).find((n) => text.includes(n.toLowerCase()));
    if (hit && !found.includes(hit)) found.push(hit);
  }
  if (found.length > 0) return { value: 'direct', proposed_by: 'rule', evidence: `the issue names ${list(found.sort())}` };
  return { value: 'staged', proposed_by: 'rule', evidence: 'the issue names none of the changed files, their directories or the gold workflows' };
}
