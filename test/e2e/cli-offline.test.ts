/**
 * An offline workspace (imported data only, no token): `r2v import` marks it `github.mode:
 * offline`, discover is not applicable, and `r2v run` finishes with exit 0. A line whose
 * repository is not in the config is an error naming the line.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, runCliCaptured } from '../support/cli.js';
import { makeRepo, tempDir } from '../support/make-repo.js';

const thread = (n: number, repo: string) => ({
  repo,
  issue: { number: n, title: `Crash ${n}`, body: 'It crashes since the last release.', user: { login: 'ann' }, created_at: '2024-01-01T00:00:00Z', html_url: `https://github.com/${repo}/issues/${n}`, state: 'closed' },
  comments: [{ id: 1000 + n, user: { login: 'bob' }, created_at: '2024-01-02T00:00:00Z', body: 'confirmed' }],
});

describe('offline workspaces', () => {
  it('import without a token sets github.mode: offline; run then finishes with exit 0', async () => {
    const repo = await makeRepo();
    await repo.commit('first', { files: { 'a.txt': 'a\n' } });
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), `# my workspace\nrepos:\n  - name: acme/widgets\n    git_url: ${repo.dir}\n`);
    writeFileSync(join(dir, 'threads.jsonl'), `${JSON.stringify(thread(1, 'acme/widgets'))}\n`);
    const imported = await runCliCaptured(['import', '--threads', 'threads.jsonl'], dir);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/GITHUB_TOKEN is not set: wrote github\.mode: offline to .*r2v\.config\.yaml/);
    const text = readFileSync(join(dir, 'r2v.config.yaml'), 'utf8');
    expect(text).toContain('# my workspace');
    expect(text).toMatch(/github:\n\s+mode: offline/);
    const run = await runCliCaptured(['run'], dir);
    expect(run.stderr).not.toMatch(/GITHUB_TOKEN|failed:? [1-9]/);
    expect(run.code).toBe(0);
    const status = JSON.parse((await runCliCaptured(['status', '--json'], dir)).stdout) as { stages: { name: string; total: number; failed: number }[] };
    expect(status.stages.find((s) => s.name === 'discover')).toMatchObject({ total: 0, failed: 0 });
    expect(status.stages.find((s) => s.name === 'attribute')).toMatchObject({ total: 1, failed: 0 });
  }, 300_000); // every stage of a real run, on a loaded machine

  it('github.mode: offline set by hand is kept; online set by hand is not overwritten', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'github:\n  mode: online\nrepos:\n  - name: acme/widgets\n');
    writeFileSync(join(dir, 'threads.jsonl'), `${JSON.stringify(thread(1, 'acme/widgets'))}\n`);
    const imported = await runCliCaptured(['import', '--threads', 'threads.jsonl'], dir);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toBe('');
    expect(readFileSync(join(dir, 'r2v.config.yaml'), 'utf8')).toContain('mode: online');
    const run = await runCliCaptured(['run', '--stage', 'discover'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('GITHUB_TOKEN is not set');
    writeFileSync(join(dir, 'r2v.config.yaml'), 'github:\n  mode: offline\nrepos:\n  - name: acme/widgets\n');
    const offline = await runCliCaptured(['run', '--stage', 'discover'], dir);
    expect(offline.code).toBe(0);
  });

  it('a thread of a repository that is not in the config is an error naming the line', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'repos:\n  - name: acme/widgets\n');
    writeFileSync(join(dir, 'threads.jsonl'), [thread(1, 'acme/widgets'), thread(2, 'someone/else'), thread(3, 'acme/widgets')].map((t) => JSON.stringify(t)).join('\n') + '\n');
    const r = await runCliCaptured(['import', '--threads', 'threads.jsonl'], dir, { GITHUB_TOKEN: 'x' });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('threads.jsonl:2: repository someone/else is not in the config (add it with: r2v repo add someone/else)\n');
    expect(jsonLines(r.stdout)[0]).toMatchObject({ lines: 3, imported: 2, bad: 1 });
    const exported = await runCliCaptured(['threads', 'export'], dir);
    expect(jsonLines(exported.stdout).map((l) => l.repo)).toEqual(['acme/widgets', 'acme/widgets']);
  });
});
