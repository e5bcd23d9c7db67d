/**
 * Frozen manifests: backward.jsonl, forward.jsonl, candidates.jsonl and rejections.jsonl, each
 * with a <name>.meta.json sidecar. Rows are streamed from SQLite in case-id order and written line by
 * line through a bounded buffer, so memory does not grow with the number of cases. Every file is
 * written under a temporary name and renamed only when all of them are complete.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/db.js';
import { AdmissionTables } from '../store/tables/admission.js';
import { UsageError } from '../errors.js';
import { refuseFrozen } from './freeze.js';
import { EVALUATOR_ID } from '../routing/index.js';
import { canonicalJson, withCanonicalFields } from '../util/canonical.js';
import { applicableBlockers, SCHEMA_VERSION, tierOf, type Selection, type Tier } from './records.js';
import type { Blocker, Task } from '../model/admission.js';
import { r2vVersion } from '../version.js';

export interface ExportOptions {
  /** Output directory (created when missing). */
  readonly out: string;
  /** Only one task; default both. */
  readonly task?: Task;
  readonly requireReview?: boolean;
  /** Admit a Backward case only when its probe ran without network. */
  readonly requireIsolation?: boolean;
  /** Also write candidate-tier cases into the task manifests (with "tier": "candidate"). */
  readonly includeCandidates?: boolean;
  /** Replace manifests that hold records with empty ones (refused otherwise). */
  readonly force?: boolean;
}

export interface ManifestFileSummary {
  readonly name: string;
  readonly path: string;
  readonly records: number;
  readonly sha256: string;
}

export interface ExportSummary {
  readonly files: ManifestFileSummary[];
  /** Manifests of the other task left by an earlier export, removed (with --task). */
  readonly removed: string[];
}

export type ManifestKind = Task | 'candidates' | 'rejections';

export interface ManifestMeta {
  schema_version: number;
  r2v_version: string;
  /** The Forward routing evaluator; absent from backward.meta.json (Backward golds do not use it). */
  evaluator?: string;
  file: string;
  kind: ManifestKind;
  selection: { task: Task | 'all'; require_review: boolean; include_candidates: boolean };
  counts: {
    records: number;
    by_repo: Record<string, number>;
    by_reason: Record<string, number>;
    by_task: Record<string, number>;
    by_tier: Record<string, number>;
  };
  sha256: string;
}

const FLUSH_BYTES = 1 << 20;

/** Appends lines to a file descriptor through one reused buffer (no per-line allocation), hashing what it writes. */
class LineSink {
  private readonly fd: number;
  private readonly hash: Hash = createHash('sha256');
  private readonly buf = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;
  private closed = false;
  records = 0;
  readonly byRepo = new Map<string, number>();
  readonly byReason = new Map<string, number>();
  readonly byTask = new Map<string, number>();
  readonly byTier = new Map<string, number>();

  constructor(readonly tmpPath: string) {
    this.fd = openSync(tmpPath, 'w');
  }

  write(line: string, repo: string, task: Task, tier: Tier, reasons: readonly string[] = []): void {
    const text = `${line}\n`;
    // Worst case 3 bytes per UTF-16 unit: flush first unless the line surely fits.
    if (this.used + text.length * 3 > FLUSH_BYTES) this.flush();
    if (text.length * 3 > FLUSH_BYTES) this.put(Buffer.from(text, 'utf8'));
    else this.used += this.buf.write(text, this.used, 'utf8');
    this.records += 1;
    bump(this.byRepo, repo);
    bump(this.byTask, task);
    bump(this.byTier, tier);
    for (const r of new Set(reasons)) bump(this.byReason, r);
  }

  flush(): void {
    if (this.used === 0) return;
    this.put(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  private put(bytes: Buffer): void {
    this.hash.update(bytes);
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off);
  }

  /** Flushes and closes; returns the SHA-256 of everything written. */
  finish(): string {
    this.flush();
    this.closed = true;
    closeSync(this.fd);
    return this.hash.digest('hex');
  }

  abort(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

function bump(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

/** Map → plain object with keys in byte order (canonical JSON sorts them again anyway). */
function sortedObject(m: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The line written to rejections.jsonl for a case that is not admitted. */
export function rejectionLine(row: { caseId: string; task: Task; repo: string; number: number; pull: number | null }, reasons: readonly Blocker[]): string {
  return canonicalJson({
    case_id: row.caseId,
    task: row.task,
    tier: 'rejected',
    repo: row.repo,
    number: row.number,
    pull: row.pull ?? undefined,
    reasons: reasons.map(blockerJson),
  });
}

function blockerJson(b: Blocker): Blocker {
  return { gate: b.gate, stage: b.stage, code: b.code, evidence: b.evidence };
}

/**
 * A stored record as written to a manifest or candidates.jsonl: the tier and the blockers that
 * keep it from the admitted tier (none for an admitted case) are explicit in every line.
 */
export function tieredRecordLine(record: string, tier: Exclude<Tier, 'rejected'>, blocking: readonly Blocker[]): string {
  // Stored records are canonical JSON: splice the two fields in rather than parse and re-sort every record.
  return withCanonicalFields(record, { tier, blockers: blocking.map(blockerJson) });
}

/**
 * Writes the manifests of the admitted cases, candidates.jsonl (cases that passed the text and
 * git screens but are not admitted: probe missing or unverified, review pending) and
 * rejections.jsonl into `opts.out`. The same database and options always give byte-identical
 * files.
 */
export function exportManifests(store: Store, opts: ExportOptions): ExportSummary {
  if (existsSync(opts.out) && !statSync(opts.out).isDirectory()) throw new UsageError(`--out ${opts.out}: exists and is not a directory`);
  refuseFrozen(opts.out);
  try {
    mkdirSync(opts.out, { recursive: true });
  } catch (error) {
    throw new UsageError(`--out ${opts.out}: cannot create the directory (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  const sel: Selection = { requireReview: opts.requireReview ?? false, requireIsolation: opts.requireIsolation ?? false };
  const includeCandidates = opts.includeCandidates ?? false;
  const tasks: Task[] = opts.task ? [opts.task] : ['backward', 'forward'];
  const names: ManifestKind[] = [...tasks, 'candidates', 'rejections'];
  const suffix = `.tmp-${process.pid}`;
  const sinks = new Map<ManifestKind, LineSink>();
  const temps: string[] = [];
  try {
    for (const name of names) {
      const tmp = join(opts.out, `.${name}.jsonl${suffix}`);
      temps.push(tmp);
      sinks.set(name, new LineSink(tmp));
    }
    const rejections = sinks.get('rejections')!;
    const candidates = sinks.get('candidates')!;
    const notAdmittedOf = new Map<Task, Map<string, number>>(tasks.map((t) => [t, new Map()]));
    for (const row of store.admission.stream(opts.task)) {
      const blockers = JSON.parse(row.blockers) as Blocker[];
      const tier = tierOf(blockers, sel);
      // A rejected case lists why it was rejected; a candidate what it still waits for.
      const blocking = tier === 'rejected' ? blockers.filter((b) => b.gate === 'always') : applicableBlockers(blockers, sel);
      const codes = blocking.map((b) => b.code);
      if (tier === 'admitted') {
        sinks.get(row.task)!.write(tieredRecordLine(row.record, tier, []), row.repo, row.task, tier);
        continue;
      }
      for (const c of new Set(codes)) bump(notAdmittedOf.get(row.task)!, c);
      if (tier === 'rejected') {
        rejections.write(rejectionLine(row, blocking), row.repo, row.task, tier, codes);
      } else {
        const line = tieredRecordLine(row.record, tier, blocking);
        candidates.write(line, row.repo, row.task, tier, codes);
        if (includeCandidates) sinks.get(row.task)!.write(line, row.repo, row.task, tier, codes);
      }
    }
    const selection = {
      task: opts.task ?? ('all' as const),
      require_review: sel.requireReview,
      include_candidates: includeCandidates,
      ...(sel.requireIsolation ? { require_isolation: true } : {}),
    };
    const finals: { tmp: string; path: string }[] = [];
    const files: ManifestFileSummary[] = [];
    for (const name of names) {
      const sink = sinks.get(name)!;
      const digest = sink.finish();
      const file = `${name}.jsonl`;
      const meta: ManifestMeta = {
        schema_version: SCHEMA_VERSION,
        r2v_version: r2vVersion(),
        evaluator: name === 'backward' ? undefined : EVALUATOR_ID,
        file,
        kind: name,
        selection,
        counts: {
          records: sink.records,
          by_repo: sortedObject(sink.byRepo),
          // A task manifest counts why its task's other cases were left out (or kept as candidates).
          by_reason: sortedObject(name === 'rejections' || name === 'candidates' ? sink.byReason : notAdmittedOf.get(name)!),
          by_task: sortedObject(sink.byTask),
          by_tier: sortedObject(sink.byTier),
        },
        sha256: digest,
      };
      const metaTmp = join(opts.out, `.${name}.meta.json${suffix}`);
      temps.push(metaTmp);
      const fd = openSync(metaTmp, 'w');
      try {
        writeSync(fd, `${JSON.stringify(JSON.parse(canonicalJson(meta)), null, 2)}\n`);
      } finally {
        closeSync(fd);
      }
      finals.push({ tmp: join(opts.out, `.${file}${suffix}`), path: join(opts.out, file) });
      finals.push({ tmp: metaTmp, path: join(opts.out, `${name}.meta.json`) });
      files.push({ name: file, path: join(opts.out, file), records: sink.records, sha256: digest });
    }
    if (!opts.force) {
      for (const f of files) {
        if (f.records === 0 && holdsRecords(f.path)) {
          throw new UsageError(`${f.path}: holds records and this export has none; kept it (check --db/--config, or use --force to replace)`);
        }
      }
    }
    for (const f of finals) renameSync(f.tmp, f.path);
    // Another task's manifests from an earlier export no longer match rejections.jsonl: remove them.
    const stale: string[] = [];
    for (const other of (['backward', 'forward'] as const).filter((t) => !tasks.includes(t))) {
      for (const name of [`${other}.jsonl`, `${other}.meta.json`]) {
        const path = join(opts.out, name);
        if (existsSync(path)) {
          unlinkSync(path);
          stale.push(path);
        }
      }
    }
    return { files, removed: stale };
  } catch (error) {
    for (const s of sinks.values()) s.abort();
    for (const t of temps) {
      try {
        unlinkSync(t);
      } catch {
        // not created or already renamed
      }
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && WRITE_ERRORS.has(code)) throw new UsageError(`--out ${opts.out}: cannot write the manifests (${code})`, { cause: error });
    throw error;
  }
}

/** Whether an existing manifest has a record (reads at most its first 64 KiB). */
function holdsRecords(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').trim().length > 0;
  } finally {
    closeSync(fd);
  }
}

const WRITE_ERRORS: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'ENOSPC', 'EEXIST']);
