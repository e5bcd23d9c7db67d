import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { openApp } from '../app.js';
import { IMPORT_SCHEMA_KINDS, importJsonSchemaText, type ImportSchemaKind } from '../github/import-schema.js';
import { repoConfig, tokenEnvs } from '../config.js';
import { setGitHubModeIfUnset } from '../config-edit.js';
import { UsageError } from '../errors.js';
import {
  parsePullLine,
  parseThreadLine,
  pullLineRows,
  threadLineRows,
  toThreadLine,
  IMPORT_SOURCE,
  type ImportRows,
  type Parsed,
} from '../github/import.js';
import type { Store } from '../store/db.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { canonicalJson } from '../util/canonical.js';
import { readJsonl } from '../util/jsonl.js';
import { groupCommand, printJson, type CliContext, type GlobalOptions, type Io, type RegisterCommand } from './types.js';

export interface ImportSummary {
  file: string;
  lines: number;
  imported: number;
  bad: number;
  skipped: number;
  threads: number;
  comments: number;
  pulls: number;
  links: number;
}

/** `r2v import --threads FILE` / `--pulls FILE` and `r2v threads export`. */
export const registerGitHub: RegisterCommand = (program: Command, ctx: CliContext) => {
  program
    .command('import')
    .description('import recorded threads or merged pull requests (JSONL) instead of the live API')
    .option('--threads <file>', 'thread lines: {"repo", "issue", "comments", "pull_request"?, "closing_issues"?}')
    .option('--pulls <file>', 'merged pull requests: {"repo", "pull", "commits"?, "closing_issues"?}')
    .addOption(new Option('--schema <format>', 'print the JSON Schema of a line of the format and exit (also in docs/schema/)').choices([...IMPORT_SCHEMA_KINDS]))
    .action(async (opts: { threads?: string; pulls?: string; schema?: ImportSchemaKind }, cmd: Command) => {
      if (opts.schema !== undefined) {
        if (opts.threads || opts.pulls) throw new UsageError('--schema prints a schema; it does not import (drop --threads/--pulls)');
        ctx.io.stdout.write(importJsonSchemaText(opts.schema));
        return;
      }
      if (!opts.threads && !opts.pulls) throw new UsageError('import needs --threads FILE or --pulls FILE');
      const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), ctx.io, { lock: 'import' });
      try {
        const { config, path } = app.loaded;
        // With a config, every line's repository must be one of its repos.
        const known = path === null ? undefined : (repo: string) => repoConfig(config, repo) !== undefined;
        let bad = 0;
        for (const [kind, file] of [['threads', opts.threads], ['pulls', opts.pulls]] as const) {
          if (!file) continue;
          const summary = await importFile(app.store, ctx.io, kind, file, new Date(), known);
          printJson(ctx.io, summary);
          bad += summary.bad;
        }
        if (bad > 0) ctx.setExitCode(3);
        const names = tokenEnvs(config);
        const noToken = names.every((n) => (ctx.io.env[n] ?? '').trim() === '');
        if (path !== null && noToken && setGitHubModeIfUnset(path, 'offline')) {
          ctx.io.stderr.write(`r2v: ${names.join(', ')} is not set: wrote github.mode: offline to ${path} (discover is skipped; set mode: online to discover live)\n`);
        }
      } finally {
        app.close();
      }
    });

  groupCommand(program, 'threads', 'stored issue and pull-request threads')
    .command('export')
    .description('write stored threads as JSONL in the import format')
    .option('--repo <owner/name>', 'only this repository')
    .option('--out <file>', 'write to this file instead of stdout')
    .action((opts: { repo?: string; out?: string }, cmd: Command) => {
      const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), ctx.io, { mode: 'read' });
      try {
        const text = exportThreads(app.store, opts.repo);
        if (opts.out) {
          const out = resolve(ctx.io.cwd, opts.out);
          writeFileAtomic(out, text);
        } else {
          ctx.io.stdout.write(text);
        }
      } finally {
        app.close();
      }
    });
};

/**
 * Reads a JSONL file; a bad line is reported on stderr as `FILE:LINE: reason` and skipped; all
 * valid lines are saved in one transaction.
 */
export async function importFile(
  store: Store,
  io: Io,
  kind: 'threads' | 'pulls',
  file: string,
  now: Date,
  known?: (repo: string) => boolean,
): Promise<ImportSummary> {
  const path = resolve(io.cwd, file);
  const parse = (v: unknown): Parsed<ImportRows> => {
    if (kind === 'threads') {
      const r = parseThreadLine(v);
      return r.ok ? { ok: true, value: threadLineRows(r.value) } : r;
    }
    const r = parsePullLine(v);
    return r.ok ? { ok: true, value: pullLineRows(r.value) } : r;
  };
  const rows: ImportRows[] = [];
  // A comment id belongs to one thread: the same id under two threads would overwrite one of them.
  const seen = new Map<string, { number: number; line: number }>();
  const sources = store.sources;
  const commentClash = (r: ImportRows, lineNumber: number): string | null => {
    for (const c of r.comments) {
      const key = `${r.repo.toLowerCase()}\u0000${c.commentId}`;
      const other = seen.get(key);
      if (other !== undefined && other.number !== c.number) return `comment ${c.commentId} also appears under ${r.repo}#${other.number} (line ${other.line})`;
      const storedUnder = sources.commentThread(r.repo, c.commentId);
      if (other === undefined && storedUnder !== undefined && storedUnder !== c.number) return `comment ${c.commentId} is already stored under ${r.repo}#${storedUnder}`;
    }
    for (const c of r.comments) seen.set(`${r.repo.toLowerCase()}\u0000${c.commentId}`, { number: c.number, line: lineNumber });
    return null;
  };
  const summary: ImportSummary = { file, lines: 0, imported: 0, bad: 0, skipped: 0, threads: 0, comments: 0, pulls: 0, links: 0 };
  for await (const line of readJsonl(path)) {
    summary.lines += 1;
    const parsed: Parsed<ImportRows> = line.error !== undefined ? { ok: false, reason: line.error } : parse(line.value);
    if (!parsed.ok) {
      summary.bad += 1;
      io.stderr.write(`${file}:${line.lineNumber}: ${parsed.reason}\n`);
      continue;
    }
    if (known && !known(parsed.value.repo)) {
      summary.bad += 1;
      io.stderr.write(`${file}:${line.lineNumber}: repository ${parsed.value.repo} is not in the config (add it with: r2v repo add ${parsed.value.repo})\n`);
      continue;
    }
    const clash = commentClash(parsed.value, line.lineNumber);
    if (clash !== null) {
      summary.bad += 1;
      io.stderr.write(`${file}:${line.lineNumber}: ${clash}; line skipped\n`);
      continue;
    }
    if (parsed.value.thread === null && parsed.value.pull === null) {
      summary.skipped += 1;
      io.stderr.write(`${file}:${line.lineNumber}: skipped: pull request is not merged\n`);
      continue;
    }
    rows.push(parsed.value);
  }
  store.transaction(() => saveImportRows(store, rows, now));
  summary.imported = rows.length;
  for (const r of rows) {
    summary.threads += r.thread ? 1 : 0;
    summary.comments += r.comments.length;
    summary.pulls += r.pull ? 1 : 0;
    summary.links += r.links.length;
  }
  return summary;
}

/** Saves imported rows; repositories not yet known are registered with source 'import'. */
export function saveImportRows(store: Store, rows: readonly ImportRows[], now: Date): void {
  const sources = store.sources;
  for (const name of new Set(rows.map((r) => r.repo))) {
    if (sources.repo(name)) continue;
    sources.upsertRepo({ name, defaultBranch: null, isFork: null, parent: null, htmlUrl: null, source: IMPORT_SOURCE, updatedAt: now.toISOString() });
  }
  for (const r of rows) {
    if (r.thread) {
      sources.upsertThread(r.thread);
      sources.replaceComments(r.repo, r.thread.number, r.comments);
    }
    if (r.pull) {
      sources.upsertPull(r.pull);
      sources.replaceLinksOfPull(r.repo, r.pull.number, r.links);
    }
  }
}

/** Every stored thread (of one repository, or all), sorted, one canonical JSON line each. */
export function exportThreads(store: Store, repo?: string): string {
  const sources = store.sources;
  const known = store.github.threadRepos();
  let repos = known;
  if (repo !== undefined) {
    const hit = known.find((r) => r.toLowerCase() === repo.toLowerCase());
    if (!hit) throw new UsageError(`--repo ${repo}: no stored threads for this repository`);
    repos = [hit];
  }
  const lines: string[] = [];
  for (const name of repos) {
    const links = sources.links(name);
    for (const t of sources.threads(name)) {
      const pull = t.kind === 'pull' ? sources.pull(name, t.number) : undefined;
      lines.push(canonicalJson(toThreadLine(t, sources.comments(name, t.number), pull, links)));
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}
