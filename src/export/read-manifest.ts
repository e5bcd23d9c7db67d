/**
 * Reading a frozen manifest back (verify, package, score, preflight): each line is checked
 * against the fields those commands use; a bad line is a one-line usage error naming the file
 * and the line.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { readJsonl } from '../util/jsonl.js';

const Sha = z.string().regex(/^[0-9a-f]{40}$/, 'must be 40 lowercase hex');

export const BackwardManifestRecord = z.object({
  task: z.literal('backward'),
  case_id: z.string().min(1),
  repo: z.string().min(1),
  number: z.number().int(),
  report: z.string(),
  report_time: z.string(),
  default_branch: z.string().nullable(),
  cutoff: Sha,
  gold: Sha,
  parent: Sha.nullable(),
  history_window: z.number().int().nullable(),
  checks: z.record(z.string(), z.boolean()),
  digests: z.object({ cutoff_tree: Sha.nullable() }).passthrough(),
}).passthrough();
export type BackwardManifestRecord = z.infer<typeof BackwardManifestRecord>;

export const ForwardManifestRecord = z.object({
  task: z.literal('forward'),
  case_id: z.string().min(1),
  repo: z.string().min(1),
  issue: z.number().int(),
  pull: z.number().int(),
  issue_text: z.string(),
  base: Sha,
  head: Sha.nullable(),
  context: z.object({ event: z.string(), action: z.string(), base_branch: z.string() }),
  changed_paths: z.array(z.string()),
  gold: z.array(z.string()),
  evaluator: z.string(),
  source: z.object({ issue_url: z.string().nullable(), pr_url: z.string().nullable() }).passthrough(),
  digests: z.object({
    base_tree: Sha.nullable(),
    workflows: z.string().nullable(),
    changed_paths: z.string().nullable(),
    context: z.string().nullable(),
  }).passthrough(),
}).passthrough();
export type ForwardManifestRecord = z.infer<typeof ForwardManifestRecord>;

export const ManifestRecord = z.discriminatedUnion('task', [BackwardManifestRecord, ForwardManifestRecord]);
export type ManifestRecord = z.infer<typeof ManifestRecord>;

/** Fails early with a clear message when the manifest path is unusable. */
export function checkManifestPath(path: string, flag = '--manifest'): void {
  if (!existsSync(path)) throw new UsageError(`${flag} ${path}: no such file`);
  if (!statSync(path).isFile()) throw new UsageError(`${flag} ${path}: not a file`);
}

/** Streams the records of a manifest, validated; throws UsageError on the first bad line. */
export async function* readManifest(path: string): AsyncGenerator<ManifestRecord & { readonly line: number }> {
  checkManifestPath(path);
  const seen = new Set<string>();
  for await (const l of readJsonl(path)) {
    if (l.error) throw new UsageError(`${path}:${l.lineNumber}: ${l.error}`);
    const parsed = ManifestRecord.safeParse(l.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.length > 0 ? issue.path.join('.') : 'record';
      throw new UsageError(`${path}:${l.lineNumber}: not a case record: ${where}: ${issue.message}`);
    }
    if (seen.has(parsed.data.case_id)) throw new UsageError(`${path}:${l.lineNumber}: case ${parsed.data.case_id} appears twice`);
    seen.add(parsed.data.case_id);
    yield { ...parsed.data, line: l.lineNumber };
  }
}

/** Every record of a manifest (for the commands that need them all, e.g. scoring). */
export async function loadManifest(path: string): Promise<ManifestRecord[]> {
  const out: ManifestRecord[] = [];
  for await (const r of readManifest(path)) out.push(r);
  return out;
}

/** SHA-256 of a file, streamed. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The sidecar of `x.jsonl` (`x.meta.json`), parsed, or null when there is none. */
export function readSidecar(path: string): { sha256?: unknown; evaluator?: unknown; schema_version?: unknown } | null {
  const meta = path.replace(/\.jsonl$/, '') + '.meta.json';
  if (meta === path || !existsSync(meta)) return null;
  try {
    return JSON.parse(readFileSync(meta, 'utf8')) as { sha256?: unknown; evaluator?: unknown };
  } catch (error) {
    throw new UsageError(`${meta}: not valid JSON (${(error as Error).message})`);
  }
}
