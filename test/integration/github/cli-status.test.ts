import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/make-repo.js';
import { startFakeGitHub, type FakeGitHub } from '../../support/github-server.js';
import { TOKEN, smallRepo, world } from './world.js';

const BIN = join(resolve(import.meta.dirname, '../../..'), 'bin/r2v.js');
const servers: FakeGitHub[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

describe('r2v run --stage discover and r2v status over the fake GitHub', () => {
  it('status shows the request budget per stage and repository; the token stays out of output and database', async () => {
    const server = await startFakeGitHub(world(smallRepo('acme/small')), {
      faults: [{ match: 'GET /repos/acme/small/pulls?', kind: 'status', status: 502, times: 1 }],
    });
    servers.push(server);
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), `github:\n  api_url: ${server.url}\nrepos:\n  - name: acme/small\n`);
    const env = { CI: 'true', GITHUB_TOKEN: TOKEN };
    const r2v = (args: string[]) => execa('node', [BIN, ...args], { cwd: dir, env, reject: false });

    const run = await r2v(['run', '--stage', 'discover']);
    expect(run.exitCode).toBe(0);
    expect(server.unexpected).toEqual([]);
    const requests = server.requests.length;
    expect(server.requests.filter((r) => r.status === 502)).toHaveLength(1);

    const status = await r2v(['status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(`budget discover acme/small: ${requests} requests, 0 not modified, 1 retries`);
    const json = await r2v(['status', '--json']);
    const report = JSON.parse(json.stdout) as { budget: { stage: string; repo: string; requests: number; not_modified: number; retries: number }[] };
    expect(report.budget).toContainEqual(expect.objectContaining({ stage: 'discover', repo: 'acme/small', requests, not_modified: 0, retries: 1 }));

    // A forced re-run asks conditionally; every answer is a 304 and the budget counts them.
    const again = await r2v(['run', '--stage', 'discover', '--force']);
    expect(again.exitCode).toBe(0);
    const second = server.requests.slice(requests);
    expect(second.length).toBeGreaterThan(0);
    expect(second.every((r) => r.status === 304)).toBe(true);
    const after = JSON.parse((await r2v(['status', '--json'])).stdout) as typeof report;
    expect(after.budget).toContainEqual(expect.objectContaining({ repo: 'acme/small', requests: requests + second.length, not_modified: second.length }));

    const db = join(dir, 'data/r2v.db');
    const haystack = Buffer.concat([
      ...[db, `${db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
      Buffer.from(run.stdout + run.stderr + status.stdout + json.stdout + again.stderr),
    ]);
    expect(haystack.includes(Buffer.from(TOKEN))).toBe(false);
  });

  it('a live run without the token fails with one line and exit 2', async () => {
    const server = await startFakeGitHub(world(smallRepo('acme/small')));
    servers.push(server);
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), `github:\n  api_url: ${server.url}\n  token_env: R2V_AUDIT_TOKEN\nrepos:\n  - name: acme/small\n`);
    const r = await execa('node', [BIN, 'run', '--stage', 'discover'], { cwd: dir, env: { CI: 'true' }, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^r2v: R2V_AUDIT_TOKEN is not set/m);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('r2v: R2V_AUDIT_TOKEN'))).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });
});
