import { describe, expect, it } from 'vitest';
import { indexPulls } from '../../../src/backward/pull-index.js';
import { neededObjects } from '../../../src/stages/resolve.js';
import type { PullRow } from '../../../src/store/tables/sources.js';
import type { Attribution } from '../../../src/model/backward.js';
import { seededRandom } from '../../../src/util/random.js';

const hex = (n: number): string => n.toString(16).padStart(40, '0');

function pull(number: number, merge: string | null, commits: string[]): PullRow {
  return {
    repo: 'acme/widgets', number, title: `pr ${number}`, body: '', author: 'a', state: 'closed', draft: false,
    baseRef: 'main', baseSha: hex(1), headRef: null, headSha: commits[commits.length - 1] ?? hex(2),
    mergeCommitSha: merge, createdAt: '2024-01-01T00:00:00Z', mergedAt: '2024-01-02T00:00:00Z', htmlUrl: '', commitShas: commits,
  } as PullRow;
}

describe('pull request index of the resolve stage', () => {
  it('answers number and SHA lookups exactly as a scan of every pull request does', () => {
    const random = seededRandom(7);
    const pulls: PullRow[] = [];
    for (let n = 1; n <= 300; n += 1) {
      const commits = Array.from({ length: 1 + Math.floor(random() * 3) }, () => hex(1000 + Math.floor(random() * 500)));
      pulls.push(pull(n, random() < 0.8 ? hex(5000 + Math.floor(random() * 200)) : null, commits));
    }
    const index = indexPulls(pulls, [{ issue: 9, pull: 4 }, { issue: 9, pull: 7 }, { issue: 3, pull: 1 }]);
    for (let n = 0; n <= 301; n += 1) expect(index.byNumber.get(n)).toBe(pulls.find((p) => p.number === n));
    const shas = new Set(pulls.flatMap((p) => [p.mergeCommitSha, ...p.commitShas]).filter((s): s is string => s !== null));
    shas.add(hex(3));
    for (const sha of shas) {
      const scan = pulls.filter((p) => p.mergeCommitSha === sha || p.commitShas.includes(sha)).map((p) => p.number);
      expect(index.bySha.get(sha) ?? []).toEqual(scan);
    }
    expect(index.fixesOf.get(9)).toEqual([4, 7]);
    expect(index.fixesOf.get(5)).toBeUndefined();
  });

  it('names the full SHAs an item needs: direct ones of this repository and those of referenced pull requests', () => {
    const index = indexPulls([pull(12, hex(77), [hex(78)])]);
    const a = (type: 'sha' | 'commit-url' | 'pr', value: string, urlRepo: string | null = null) => ({ ref: { type, text: value, value, urlRepo } }) as unknown as Attribution;
    expect(neededObjects('acme/widgets', [a('sha', hex(5)), a('sha', 'abc1234'), a('pr', '12'), a('commit-url', hex(6), 'other/repo'), a('commit-url', hex(8), 'Acme/Widgets')], index))
      .toEqual([hex(5), hex(77), hex(78), hex(8)]);
  });
});
