import { describe, expect, it } from 'vitest';
import { Config, parseConfigText } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors.js';
import { DEFAULT_TEST_GLOBS } from '../../../src/pairs/globs.js';
import { planRepo, type PullFields } from '../../../src/stages/pairs.js';

const sha = (c: string): string => c.repeat(40);
const pulls: PullFields[] = [
  { number: 3, baseRef: 'main', baseSha: sha('a'), headSha: sha('b'), createdAt: '2024-01-01T00:00:00Z', mergedAt: '2024-01-03T00:00:00Z' },
  { number: 4, baseRef: 'main', baseSha: sha('a'), headSha: sha('c'), createdAt: '2024-01-02T00:00:00Z', mergedAt: '2024-01-04T00:00:00Z' },
  { number: 5, baseRef: 'main', baseSha: sha('a'), headSha: sha('d'), createdAt: '2024-01-02T00:00:00Z', mergedAt: null },
];
const config = (over: Record<string, unknown> = {}): Config =>
  Config.parse({ repos: [{ name: 'o/r', test_command: 'sh t.sh {tests}', ...over }], pairs: { window_days: 0 } });

describe('planRepo', () => {
  it('plans one item per candidate pair with the effective inputs', () => {
    const items = planRepo(config(), 'o/r', pulls);
    expect(items.map((i) => i.key)).toEqual(['o/r#3+4']);
    expect(items[0]!.input).toMatchObject({ repo: 'o/r', why: 'overlap', testGlobs: DEFAULT_TEST_GLOBS, base: 'newer', repeats: 2 });
    expect(items[0]!.input.a.number).toBe(3);
    expect(items[0]!.inputDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes an item stale when a PR head, the test command or the globs change', () => {
    const d0 = planRepo(config(), 'o/r', pulls)[0]!.inputDigest;
    const moved = pulls.map((p) => (p.number === 4 ? { ...p, headSha: sha('e') } : p));
    expect(planRepo(config(), 'o/r', moved)[0]!.inputDigest).not.toBe(d0);
    expect(planRepo(config({ test_command: 'sh u.sh {tests}' }), 'o/r', pulls)[0]!.inputDigest).not.toBe(d0);
    expect(planRepo(config({ test_globs: ['t/**'] }), 'o/r', pulls)[0]!.inputDigest).not.toBe(d0);
    expect(planRepo(config(), 'o/r', [...pulls].reverse())[0]!.inputDigest).toBe(d0);
  });

  it('plans nothing for a repository without a test command, and rejects a template without {tests}', () => {
    expect(planRepo(Config.parse({ repos: [{ name: 'o/r' }] }), 'o/r', pulls)).toEqual([]);
    expect(() => planRepo(config({ test_command: 'make test' }), 'o/r', pulls)).toThrow(/o\/r\.test_command: must contain \{tests\}/);
  });

  it('refuses fewer than two repeats per condition, and an unknown shared-base rule, as config errors naming the field', () => {
    expect(() => parseConfigText('pairs:\n  repeats: 1\n', 'r2v.config.yaml')).toThrow(ConfigError);
    expect(() => parseConfigText('pairs:\n  repeats: 1\n', 'r2v.config.yaml')).toThrow(/^r2v\.config\.yaml: pairs\.repeats: Too small/);
    expect(() => parseConfigText('pairs:\n  base: oldest\n', 'r2v.config.yaml')).toThrow(/^r2v\.config\.yaml: pairs\.base: /);
    expect(parseConfigText('pairs:\n  window_days: 3\n', 'r2v.config.yaml').pairs).toEqual({ window_days: 3, base: 'newer', repeats: 2 });
  });
});
