import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines } from '../../support/cli.js';
import { buildWorld, runPipeline, type World } from './world.js';

/** A screener that answers per case: good quotes, a fabricated quote, malformed JSON, no answer in time. */
const SCRIPT = `
import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  const c = JSON.parse(input);
  appendFileSync('seen.log', c.case_key + '\\t' + (process.env.GITHUB_TOKEN ?? '-') + '\\t' + (c.thread ? 'thread' : 'issue') + '\\n');
  switch (c.case_key) {
    case 'acme/widget#2':
      process.stdout.write(JSON.stringify({ decision: 'accept', reasons: ['the bisect names this crash'], quotes: [c.thread.posts[1].body, c.thread.title] }));
      break;
    case 'acme/widgets#5<-105':
      process.stdout.write(JSON.stringify({ decision: 'reject', reasons: ['maintainer objection'], quotes: ['the maintainer said this is out of scope'] }));
      break;
    case 'acme/widgets#5<-106':
      process.stdout.write('{"decision": "accept", "reasons": [');
      break;
    case 'acme/widgets#7<-107':
      setTimeout(() => process.stdout.write('{}'), 30000);
      break;
    default:
      process.exit(4);
  }
});
`;

function screenerConfig(world: World): void {
  writeFileSync(join(world.dir, 'screener.mjs'), SCRIPT);
  world.writeConfig(['screener:', '  name: fake', '  command: ["node", "screener.mjs"]', '  timeout_s: 10']);
}

describe('r2v review screen with an external screener', () => {
  it('records supported answers as proposals, discards unsupported, malformed and late ones, and never sends rejected cases', async () => {
    const world = await buildWorld();
    await runPipeline(world);
    screenerConfig(world);
    const env = { GITHUB_TOKEN: 'ghp_not_for_screeners_123', PATH: process.env.PATH };

    const first = await world.cli(['review', 'screen'], env);
    expect(first.code).toBe(3);
    const outcomes = jsonLines(first.stdout).map((r) => [r.case_key, r.outcome, r.decision ?? null]);
    expect(outcomes).toEqual([
      ['acme/widget#2', 'recorded', 'accept'],
      ['acme/widgets#5<-105', 'unsupported', 'reject'],
      ['acme/widgets#5<-106', 'invalid', null],
      ['acme/widgets#7<-107', 'timeout', null],
    ]);
    const byKey = new Map(jsonLines(first.stdout).map((r) => [r.case_key as string, r]));
    expect(byKey.get('acme/widgets#5<-105')!.detail).toBe('quotes not found in the text: "the maintainer said this is out of scope"');
    expect(byKey.get('acme/widgets#5<-106')!.detail).toMatch(/^answer is not JSON/);
    expect(byKey.get('acme/widgets#7<-107')!.detail).toBe('no answer within 10 s');
    expect(first.stderr).toBe('r2v: screener:fake: 1 recorded, 1 unsupported, 1 invalid, 1 timeout\n');

    // Only the pending review cases were sent (no rule-rejected case, no candidate), without the GitHub token.
    const seen = (): string[] => readFileSync(join(world.dir, 'seen.log'), 'utf8').trimEnd().split('\n');
    expect(seen()).toEqual([
      'acme/widget#2\t-\tthread',
      'acme/widgets#5<-105\t-\tissue',
      'acme/widgets#5<-106\t-\tissue',
      'acme/widgets#7<-107\t-\tissue',
    ]);

    // The accepted answer is in the ledger as a screener proposal; the case is still pending.
    const store = world.open();
    const ledger = store.review;
    const entries = ledger.entries('acme/widget#2');
    expect(entries).toEqual([
      expect.objectContaining({ reviewer: 'screener:fake', source: 'screener', decision: 'accept', task: 'backward', id: byKey.get('acme/widget#2')!.entry_id }),
    ]);
    expect(JSON.parse(entries[0]!.reason)).toEqual({
      reasons: ['the bisect names this crash'],
      quotes: [`Looks like #12 again. I bisected it to ${world.gold.slice(0, 9)}.`, 'render crashes on nested groups again'],
    });
    expect(ledger.count()).toBe(1);
    store.close();
    const exported = jsonLines((await world.cli(['review', 'export'])).stdout);
    expect(exported.map((r) => [r.case_key, r.status])).toEqual([
      ['acme/widget#2', 'pending'],
      ['acme/widgets#5<-105', 'pending'],
      ['acme/widgets#5<-106', 'pending'],
      ['acme/widgets#7<-107', 'pending'],
    ]);
    expect(exported[0]!.decisions).toEqual([expect.objectContaining({ reviewer: 'screener:fake', source: 'screener', current: true })]);

    // A second run does not ask again about a case already answered on the same inputs.
    const second = await world.cli(['review', 'screen', '--task', 'backward'], env);
    expect(second.code).toBe(0);
    expect(jsonLines(second.stdout)).toEqual([{ case_key: 'acme/widget#2', outcome: 'skipped', detail: 'screener:fake already answered on these inputs' }]);
    expect(seen()).toHaveLength(4);

    // Once a human decides, the case is no longer pending and is not sent at all.
    writeFileSync(join(world.dir, 'd.jsonl'), `${JSON.stringify({ case_key: 'acme/widget#2', reviewer: 'carol', decision: 'accept', reason: 'agree' })}\n`);
    expect((await world.cli(['review', 'import', 'd.jsonl'])).code).toBe(0);
    const third = await world.cli(['review', 'screen', '--task', 'backward', '--again'], env);
    expect(third).toEqual({ code: 0, stdout: '', stderr: 'r2v: screener:fake: no pending cases\n' });
    expect(seen()).toHaveLength(4);
  });

  it('is a one-line usage error without a configured screener, and a failing screener is reported per case', async () => {
    const world = await buildWorld({ forward: false });
    await runPipeline(world);
    const none = await world.cli(['review', 'screen']);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^r2v: .*r2v\.config\.yaml: no screener configured \(add screener: \{name, command, timeout_s\}\)\n$/);

    writeFileSync(join(world.dir, 'fail.mjs'), "process.stderr.write('model quota exhausted\\n'); process.exit(4);\n");
    world.writeConfig(['screener:', '  name: broken', '  command: ["node", "fail.mjs"]']);
    const failed = await world.cli(['review', 'screen', '--repo', 'acme/widget'], { PATH: process.env.PATH });
    expect(failed.code).toBe(3);
    expect(jsonLines(failed.stdout)).toEqual([{ case_key: 'acme/widget#2', outcome: 'failed', detail: 'exit code 4: model quota exhausted' }]);
    const store = world.open();
    expect(store.review.count()).toBe(0);
    store.close();
  });
});
