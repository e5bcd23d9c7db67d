/**
 * The import formats as JSON Schema files (docs/schema/, printed by `r2v import --schema`), kept
 * equal to the zod schemas import validates with; and a comment id under two threads is reported.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importJsonSchemaText } from '../../../src/github/import-schema.js';
import { jsonLines, runCliCaptured } from '../../support/cli.js';
import { tempDir } from '../../support/make-repo.js';

const ROOT = resolve(import.meta.dirname, '../../..');

const thread = (n: number, commentIds: number[]) => ({
  repo: 'acme/widgets',
  issue: { number: n, title: `Crash ${n}`, body: 'It crashes.', user: { login: 'ann' }, created_at: '2024-01-01T00:00:00Z', html_url: `https://github.com/acme/widgets/issues/${n}`, state: 'closed' },
  comments: commentIds.map((id) => ({ id, user: { login: 'bob' }, created_at: '2024-01-02T00:00:00Z', body: `comment ${id} on ${n}` })),
});

describe('import formats as JSON Schema', () => {
  it.each(['threads', 'pulls'] as const)('docs/schema/%s.schema.json is the generated schema (regenerate: r2v import --schema KIND > docs/schema/KIND.schema.json)', async (kind) => {
    const committed = readFileSync(join(ROOT, 'docs/schema', `${kind}.schema.json`), 'utf8');
    expect(committed).toBe(importJsonSchemaText(kind));
    const printed = await runCliCaptured(['import', '--schema', kind], await tempDir());
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(committed);
    const schema = JSON.parse(committed) as { $schema: string; type: string; required: string[]; properties: Record<string, unknown> };
    expect(schema.$schema).toContain('json-schema.org');
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(expect.arrayContaining(kind === 'threads' ? ['repo', 'issue'] : ['repo', 'pull']));
  });

  it('an unknown --schema value is a usage error listing the choices', async () => {
    const r = await runCliCaptured(['import', '--schema', 'issues'], await tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Allowed choices are threads, pulls/);
  });
});

describe('comment ids under two threads', () => {
  it('are reported with both places, in one file and against what is stored; nothing is overwritten', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'r2v.config.yaml'), 'github:\n  mode: offline\nrepos:\n  - name: acme/widgets\n');
    writeFileSync(join(dir, 'a.jsonl'), `${JSON.stringify(thread(1, [11, 12]))}\n${JSON.stringify(thread(2, [21, 12]))}\n`);
    const first = await runCliCaptured(['import', '--threads', 'a.jsonl'], dir);
    expect(first.code).toBe(3);
    expect(first.stderr).toBe('a.jsonl:2: comment 12 also appears under acme/widgets#1 (line 1); line skipped\n');
    expect(jsonLines(first.stdout)[0]).toMatchObject({ lines: 2, imported: 1, bad: 1 });
    writeFileSync(join(dir, 'b.jsonl'), `${JSON.stringify(thread(3, [11]))}\n`);
    const second = await runCliCaptured(['import', '--threads', 'b.jsonl'], dir);
    expect(second.code).toBe(3);
    expect(second.stderr).toBe('b.jsonl:1: comment 11 is already stored under acme/widgets#1; line skipped\n');
    const stored = jsonLines((await runCliCaptured(['threads', 'export'], dir)).stdout) as { issue: { number: number }; comments: { id: number; body: string }[] }[];
    expect(stored.map((t) => [t.issue.number, t.comments.map((c) => c.id)])).toEqual([[1, [11, 12]]]);
    // Re-importing the same thread is not a clash.
    expect((await runCliCaptured(['import', '--threads', 'a.jsonl'], dir)).stderr).not.toContain('a.jsonl:1');
  });
});
