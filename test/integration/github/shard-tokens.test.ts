import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { shardOf } from '../../../src/run/shard.js';
import { tempDir } from '../../support/make-repo.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { smallRepo, world } from './world.js';

const BIN = join(resolve(import.meta.dirname, '../../..'), 'bin/r2v.js');
const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

describe('r2v run --shard with several token variables', () => {
  it('runs only the shard\'s repositories, uses token K mod M, and the budget ledger names the variable, never the value', async () => {
    const names = ['acme/a1', 'acme/a2', 'acme/a3', 'acme/a4', 'acme/a5', 'acme/a6'];
    const server = await startFakeGitHub(world(...names.map((n) => smallRepo(n))));
    servers.push(server);
    const dir = await tempDir();
    writeFileSync(
      join(dir, 'r2v.config.yaml'),
      `github:\n  api_url: ${server.url}\n  token_env: [TOKEN_A, TOKEN_B]\nrepos:\n${names.map((n) => `  - name: ${n}\n`).join('')}`,
    );
    const tokens = { TOKEN_A: 'secret-value-aaaa-1111', TOKEN_B: 'secret-value-bbbb-2222' };
    const r2v = (args: string[], env: Record<string, string> = {}) => execa('node', [BIN, ...args], { cwd: dir, env: { CI: 'true', ...tokens, ...env }, reject: false });

    // Shard 1 of 2 from the Kubernetes index: token (1 mod 2) = TOKEN_B.
    const run = await r2v(['run', '--stage', 'discover', '--shards', '2'], { JOB_COMPLETION_INDEX: '1' });
    expect(run.exitCode, run.stderr).toBe(0);
    const mine = names.filter((n) => shardOf(n, 2) === 1);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(names.length);
    expect(run.stderr).toContain(`shard 1/2 (from JOB_COMPLETION_INDEX=1): ${mine.length} of ${names.length} repositories`);
    expect(run.stderr).toContain('token TOKEN_B');
    const repos = new Set(server.requests.map((r) => /^\/repos\/([^/]+\/[^/?]+)/.exec(r.path)?.[1]).filter(Boolean));
    expect([...repos].sort()).toEqual(mine);
    expect(server.requests.every((r) => r.headers.authorization === `token ${tokens.TOKEN_B}`)).toBe(true);

    const dbPath = join(dir, 'data', 'r2v.shard-1-of-2.db');
    expect(existsSync(join(dir, 'data', 'r2v.db'))).toBe(false);
    const db = new Database(dbPath, { readonly: true });
    const budget = db.prepare('SELECT repo, token_env FROM budget ORDER BY repo').all();
    const shard = (db.prepare("SELECT value FROM store_meta WHERE key = 'shard'").get() as { value: string }).value;
    db.close();
    expect(budget).toEqual(mine.map((repo) => ({ repo, token_env: 'TOKEN_B' })));
    expect(shard).toBe('1/2');
    const status = await r2v(['--db', dbPath, 'status']);
    expect(status.stdout).toContain('(token TOKEN_B)');

    // The same database under another shard label is refused with one line.
    const wrong = await r2v(['--db', dbPath, 'run', '--stage', 'discover', '--shard', '0/2']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr.trim()).toBe(`r2v: ${dbPath}: database of shard 1/2, not 0/2 (use --db to give each shard its own database)`);

    const haystack = Buffer.concat([...[dbPath, `${dbPath}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)), Buffer.from(run.stdout + run.stderr + status.stdout)]);
    for (const value of Object.values(tokens)) expect(haystack.includes(Buffer.from(value))).toBe(false);
  });
});
