import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../../src/store/db.js';
import { mergeShards } from '../../../src/store/merge.js';
import { runCliCaptured } from '../../support/cli.js';
import { tempDir } from '../../support/make-repo.js';

/** A shard database holding `repos`, with rows in the tables that have surrogate ids. */
function makeShard(path: string, repos: string[], meta: { version?: string; evaluator?: string; shard?: string } = {}): void {
  const store = openStore(path);
  try {
    const m = store.meta;
    m.set('r2v_version', meta.version ?? '0.1.0');
    m.set('evaluator', meta.evaluator ?? 'routing/1');
    if (meta.shard) m.set('shard', meta.shard);
    const at = '2024-01-01T00:00:00.000Z';
    store.db.prepare('INSERT INTO runs (started_at, argv) VALUES (?, ?)').run(at, JSON.stringify(['run', path]));
    const gh = store.github.withTokenEnv(`TOKEN_${repos.length}`);
    for (const repo of repos) {
      store.db.prepare("INSERT INTO repos (name, source, updated_at) VALUES (?, 'api', ?)").run(repo, at);
      store.db.prepare(`INSERT INTO work_items (stage, key, repo, status, stage_version, input_digest, updated_at) VALUES ('discover', ?, ?, 'done', 1, 'd', ?)`).run(repo, repo, at);
      gh.putRaw({ stage: 'discover', repo, request: `GET /repos/${repo}`, status: 200, body: '{}', fetchedAt: at });
      gh.count('discover', repo, { requests: 3 });
      store.db.prepare(`INSERT INTO review_entries (case_key, task, reviewer, decision, reason, input_digest, recorded_at, source)
        VALUES (?, 'backward', 'ana', 'accept', 'ok', 'x', ?, 'human')`).run(`${repo}#1`, at);
      store.db.prepare('INSERT OR IGNORE INTO pair_patches (sha256, content) VALUES (?, ?)').run('same-patch', Buffer.from('diff'));
    }
  } finally {
    store.close();
  }
}

const count = (db: Database.Database, table: string): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('mergeShards', () => {
  it('combines shards: fresh ids for runs, raw responses and review entries; shared content-addressed rows once; token names kept', async () => {
    const dir = await tempDir();
    const a = join(dir, 'a.db');
    const b = join(dir, 'b.db');
    const c = join(dir, 'c.db');
    makeShard(a, ['acme/one', 'acme/two'], { shard: '0/3' });
    makeShard(b, ['acme/three'], { shard: '1/3' });
    makeShard(c, [], { shard: '2/3' });
    const out = join(dir, 'out.db');
    const summary = mergeShards(out, [a, b, c]);
    expect(summary.shards.map((s) => s.repos)).toEqual([['acme/one', 'acme/two'], ['acme/three'], []]);
    const db = new Database(out, { readonly: true });
    try {
      expect(count(db, 'repos')).toBe(3);
      expect(db.prepare('SELECT id, argv FROM runs ORDER BY id').all()).toEqual([
        { id: 1, argv: JSON.stringify(['run', a]) },
        { id: 2, argv: JSON.stringify(['run', b]) },
        { id: 3, argv: JSON.stringify(['run', c]) },
      ]);
      expect((db.prepare('SELECT id FROM raw_responses ORDER BY id').all() as { id: number }[]).map((r) => r.id)).toEqual([1, 2, 3]);
      expect(db.prepare('SELECT id, case_key FROM review_entries ORDER BY id').all()).toEqual([
        { id: 1, case_key: 'acme/one#1' },
        { id: 2, case_key: 'acme/two#1' },
        { id: 3, case_key: 'acme/three#1' },
      ]);
      expect(count(db, 'pair_patches')).toBe(1);
      expect(db.prepare('SELECT repo, requests, token_env FROM budget ORDER BY repo').all()).toEqual([
        { repo: 'acme/one', requests: 3, token_env: 'TOKEN_2' },
        { repo: 'acme/three', requests: 3, token_env: 'TOKEN_1' },
        { repo: 'acme/two', requests: 3, token_env: 'TOKEN_2' },
      ]);
      const meta = Object.fromEntries((db.prepare('SELECT key, value FROM store_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
      expect(meta).toEqual({ r2v_version: '0.1.0', evaluator: 'routing/1', merged_from: '0/3=a.db 1/3=b.db 2/3=c.db' });
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    } finally {
      db.close();
    }
    // The merged database opens as an ordinary r2v database; the append-only ledger still holds.
    const store = openStore(out);
    expect(() => store.db.prepare('DELETE FROM review_entries').run()).toThrow(/append-only/);
    store.close();
    expect(existsSync(`${out}.partial-${process.pid}`)).toBe(false);
  });

  it('refuses a repository held by two shards, naming both files, and writes nothing', async () => {
    const dir = await tempDir();
    const a = join(dir, 'a.db');
    const b = join(dir, 'b.db');
    makeShard(a, ['acme/one', 'acme/two']);
    makeShard(b, ['Acme/Two']);
    const out = join(dir, 'out.db');
    expect(() => mergeShards(out, [a, b])).toThrow(`${a} and ${b}: both hold repository acme/two (each repository must be in exactly one shard)`);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses shards of different r2v versions or routing evaluators, naming both files', async () => {
    const dir = await tempDir();
    const a = join(dir, 'a.db');
    const b = join(dir, 'b.db');
    const c = join(dir, 'c.db');
    makeShard(a, ['acme/one']);
    makeShard(b, ['acme/two'], { version: '0.2.0' });
    makeShard(c, ['acme/three'], { evaluator: 'routing/2' });
    expect(() => mergeShards(join(dir, 'o1.db'), [a, b])).toThrow(`${a} and ${b}: written by different r2v versions (0.1.0 vs 0.2.0)`);
    expect(() => mergeShards(join(dir, 'o2.db'), [a, c])).toThrow(`${a} and ${c}: different routing evaluators (routing/1 vs routing/2)`);
  });

  it('refuses a different schema, a database never written by r2v run, and a row key held by two shards with different content', async () => {
    const dir = await tempDir();
    const a = join(dir, 'a.db');
    const b = join(dir, 'b.db');
    makeShard(a, ['acme/one']);
    makeShard(b, ['acme/two']);
    // Same natural key in both shards (a global http cache entry is fine; a repository-less ledger row is not).
    for (const [p, digest] of [[a, 'x'], [b, 'y']] as const) {
      const db = new Database(p);
      db.prepare(`INSERT INTO work_items (stage, key, repo, status, stage_version, input_digest, updated_at) VALUES ('admit', 'global', '', 'done', 1, ?, 't')`).run(digest);
      db.close();
    }
    expect(() => mergeShards(join(dir, 'o.db'), [a, b])).toThrow(`${a} and ${b}: both hold work_items row stage=admit, key=global with different content`);

    const old = join(dir, 'old.db');
    makeShard(old, ['acme/three']);
    const db = new Database(old);
    db.prepare('DELETE FROM schema_migrations WHERE id = (SELECT MAX(id) FROM schema_migrations)').run();
    db.close();
    expect(() => mergeShards(join(dir, 'o3.db'), [a, old])).toThrow(/old\.db: schema version .* differs from this r2v's/);

    const bare = join(dir, 'bare.db');
    openStore(bare).close();
    expect(() => mergeShards(join(dir, 'o4.db'), [a, bare])).toThrow(`${bare}: no r2v version recorded (not written by r2v run)`);
    expect(() => mergeShards(join(dir, 'o5.db'), [a, join(dir, 'missing.db')])).toThrow(/missing\.db: no such database/);
    writeFileSync(join(dir, 'text.db'), 'not sqlite');
    expect(() => mergeShards(join(dir, 'o6.db'), [a, join(dir, 'text.db')])).toThrow(/text\.db: not an r2v database/);
  });

  it('leaves an existing output untouched when the merge fails, and replaces it only with --force', async () => {
    const dir = await tempDir();
    const a = join(dir, 'a.db');
    const b = join(dir, 'b.db');
    makeShard(a, ['acme/one']);
    makeShard(b, ['acme/one']);
    const out = join(dir, 'out.db');
    writeFileSync(out, 'previous');
    expect(() => mergeShards(out, [a])).toThrow(/out\.db: already exists \(use --force to replace it\)/);
    expect(() => mergeShards(out, [a, b], { force: true })).toThrow(/both hold repository acme\/one/);
    expect(readFileSync(out, 'utf8')).toBe('previous');
    mergeShards(out, [a], { force: true });
    const db = new Database(out, { readonly: true });
    expect(count(db, 'repos')).toBe(1);
    db.close();
  });

  it('r2v merge: exit 2 and one line on a refusal; r2v shard plan prints every shard as JSON', async () => {
    const dir = await tempDir();
    makeShard(join(dir, 'a.db'), ['acme/one']);
    makeShard(join(dir, 'b.db'), ['acme/one']);
    const r = await runCliCaptured(['merge', 'out.db', 'a.db', 'b.db'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`r2v: ${join(dir, 'a.db')} and ${join(dir, 'b.db')}: both hold repository acme/one (each repository must be in exactly one shard)\n`);
    expect(existsSync(join(dir, 'out.db'))).toBe(false);
    const ok = await runCliCaptured(['merge', 'out.db', 'a.db'], dir);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/merged 1 shards \(1 repositories\)/);

    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos:\n  - name: acme/one\n  - name: acme/two\n  - name: Acme/Three\n');
    const plan = await runCliCaptured(['shard', 'plan', '--shards', '2'], dir);
    expect(plan.code).toBe(0);
    const parsed = JSON.parse(plan.stdout) as { shards: number; repos: number; plan: { shard: number; repos: string[] }[] };
    expect(parsed.shards).toBe(2);
    expect(parsed.plan.flatMap((p) => p.repos).sort()).toEqual(['Acme/Three', 'acme/one', 'acme/two']);
    const bad = await runCliCaptured(['shard', 'plan', '--shards', '0'], dir);
    expect(bad.code).toBe(2);
  });
});
