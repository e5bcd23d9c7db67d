import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseWorkflow, route } from '../../../src/routing/index.js';

const DOC = resolve(import.meta.dirname, '../../../docs/SCALE-OUT.md');

/** The fenced block that follows the `<!-- workflow: … -->` marker in docs/SCALE-OUT.md. */
function docWorkflow(): { path: string; text: string } {
  const doc = readFileSync(DOC, 'utf8');
  const m = /<!-- workflow: (\S+)[^>]*-->\n```yaml\n([\s\S]*?)\n```/.exec(doc);
  if (!m) throw new Error('docs/SCALE-OUT.md: no workflow block after a <!-- workflow: … --> marker');
  return { path: m[1]!, text: `${m[2]!}\n` };
}

describe('docs/SCALE-OUT.md', () => {
  it('its GitHub Actions matrix workflow passes the routing parser with no invalid-file findings', () => {
    const wf = docWorkflow();
    expect(wf.path).toBe('.github/workflows/r2v-shards.yml');
    const parsed = parseWorkflow(wf.text);
    expect(parsed).toMatchObject({ ok: true });
    expect(parsed.ok && parsed.events).toEqual(expect.arrayContaining(['workflow_dispatch', 'schedule']));
    const result = route([wf], ['src/cli.ts'], { event: 'pull_request', action: 'synchronize', base_branch: 'main' });
    expect(result.invalid).toEqual([]);
    expect(result.activated).toEqual([]); // dispatch and schedule only: a pull request never starts it
    // The matrix runs shards 0..N-1 and the merge job takes every shard's database.
    const doc = YAML.parse(wf.text) as { jobs: { shard: { strategy: { matrix: { shard: number[] } } }; merge: { needs: string } } };
    expect(doc.jobs.shard.strategy.matrix.shard).toEqual([0, 1, 2, 3]);
    expect(doc.jobs.merge.needs).toBe('shard');
  });

  it('its Kubernetes manifests are valid YAML documents of kind Job, the first an Indexed Job', () => {
    const doc = readFileSync(DOC, 'utf8');
    const block = /## Kubernetes Indexed Job[\s\S]*?```yaml\n([\s\S]*?)\n```/.exec(doc)![1]!;
    const jobs = YAML.parseAllDocuments(block).map((d) => d.toJS() as { kind: string; spec: { completionMode?: string; completions?: number } });
    expect(jobs.map((j) => j.kind)).toEqual(['Job', 'Job']);
    expect(jobs[0]!.spec).toMatchObject({ completionMode: 'Indexed', completions: 4 });
  });
});
