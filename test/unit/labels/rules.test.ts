import { describe, expect, it } from 'vitest';
import { backwardLocality, backwardStaging, componentOf, forwardStaging, pathMentions } from '../../../src/labels/rules.js';
import { withOverride } from '../../../src/export/records.js';

const KNOWN = ['src/layout/box.js', 'src/parse.js', 'docs/guide.md', 'tools/build.sh', 'Makefile'];

describe('Backward locality', () => {
  it('local: the report names a file of a component the gold touches', () => {
    const l = backwardLocality({ report: 'Crash at measure (src/layout/box.js:14)', knownPaths: KNOWN, goldPaths: ['src/layout/box.js'] });
    expect(l).toEqual({ value: 'local', proposed_by: 'rule', evidence: "the report names src/layout/box.js (src); the gold touches src" });
    // A bare file name designates the known file of that name.
    expect(backwardLocality({ report: 'parse.js throws', knownPaths: KNOWN, goldPaths: ['src/parse.js', 'docs/guide.md'] }).value).toBe('local');
  });

  it('cross: the report names another component, or no file at all', () => {
    const other = backwardLocality({ report: 'running tools/build.sh fails', knownPaths: KNOWN, goldPaths: ['src/parse.js'] });
    expect(other).toEqual({ value: 'cross', proposed_by: 'rule', evidence: 'the report names tools; the gold touches src' });
    const none = backwardLocality({ report: 'The app is slow since yesterday.', knownPaths: KNOWN, goldPaths: ['Makefile'] });
    expect(none).toEqual({ value: 'cross', proposed_by: 'rule', evidence: 'the report names no file of the repository; the gold touches /' });
  });

  it('uses the configured component map when there is one (longest prefix wins)', () => {
    const components = { render: ['src/layout'], core: ['src', 'lib/'] };
    expect([componentOf('src/layout/box.js', components), componentOf('src/parse.js', components), componentOf('lib/x.c', components), componentOf('docs/a.md', components)])
      .toEqual(['render', 'core', 'core', 'docs']);
    // src/layout and src/parse.js share the top-level directory, but not the configured component.
    const l = backwardLocality({ report: 'parse.js throws', knownPaths: KNOWN, goldPaths: ['src/layout/box.js'], components });
    expect(l).toEqual({ value: 'cross', proposed_by: 'rule', evidence: 'the report names core; the gold touches render' });
    expect(backwardLocality({ report: 'parse.js throws', knownPaths: KNOWN, goldPaths: ['src/layout/box.js'] }).value).toBe('local');
  });

  it('finds path-like words and components', () => {
    expect(pathMentions('see ./src/a.js, lib/ and README.md. v1.2 x/y')).toEqual(['README.md', 'lib', 'src/a.js', 'x/y']);
    expect([componentOf('src/a/b.js'), componentOf('Makefile')]).toEqual(['src', '/']);
  });
});

describe('Backward staging', () => {
  const gold = ['src/parse.js'];
  it('staged: a fix or revert commit between gold and cutoff touches the gold files', () => {
    const l = backwardStaging({ goldPaths: gold, between: [
      { sha: 'a'.repeat(40), subject: 'docs: typo', paths: ['docs/guide.md'] },
      { sha: 'b'.repeat(40), subject: 'parse: fix trailing comma handling', paths: ['src/parse.js'] },
    ] });
    expect(l).toEqual({ value: 'staged', proposed_by: 'rule', evidence: `1 fix-like commit(s) touch the gold's files between gold and cutoff: ${'b'.repeat(12)} "parse: fix trailing comma handling"` });
    expect(backwardStaging({ goldPaths: gold, between: [{ sha: 'c'.repeat(40), subject: 'Revert "parse: faster splitting"', paths: ['src/parse.js'] }] }).value).toBe('staged');
  });

  it('direct: no fix-like commit on the gold files (a fix elsewhere, or a non-fix on them, does not count)', () => {
    const l = backwardStaging({ goldPaths: gold, between: [
      { sha: 'a'.repeat(40), subject: 'fix docs', paths: ['docs/guide.md'] },
      { sha: 'b'.repeat(40), subject: 'parse: prefixes', paths: ['src/parse.js'] },
    ] });
    expect(l).toEqual({ value: 'direct', proposed_by: 'rule', evidence: "no fix or revert commit touches the gold's files in the 2 commits between gold and cutoff" });
  });
});

describe('Forward staging', () => {
  const changed = ['src/render/page.ts', 'docs/api.md'];
  const workflows = ['.github/workflows/lint.yml'];
  it.each([
    ['a changed path', 'Edit src/render/page.ts to …', 'src/render/page.ts'],
    ['a changed file name', 'page.ts has a typo', 'page.ts'],
    ['a changed directory', 'everything under src/render is slow', 'src/render'],
    ['a workflow', 'the lint.yml job is red', 'lint.yml'],
  ])('direct when the issue names %s', (_what, text, named) => {
    const l = forwardStaging({ issueText: text, changedPaths: changed, workflows });
    expect(l.value).toBe('direct');
    expect(l.evidence).toContain(named);
  });

  it('staged when the issue names none of them', () => {
    expect(forwardStaging({ issueText: 'Pages render blank in Firefox.', changedPaths: changed, workflows })).toEqual({
      value: 'staged', proposed_by: 'rule', evidence: 'the issue names none of the changed files, their directories or the gold workflows',
    });
  });
});

describe('review overrides', () => {
  it('replace the value, say review, and keep the rule proposal as evidence', () => {
    const rule = forwardStaging({ issueText: 'nothing', changedPaths: ['a/b.ts'], workflows: [] });
    const o = withOverride('staging', rule, new Map([['staging', { value: 'direct', reviewer: 'alice', reason: 'the title names the module' }]]));
    expect(o).toEqual({ value: 'direct', proposed_by: 'review', evidence: `alice: the title names the module; the rule proposed staged: ${rule.evidence}` });
    expect(withOverride('staging', rule, new Map())).toBe(rule);
  });
});

describe('repos[].components in the config', () => {
  it('accepts name → path prefixes and refuses a path outside the repository', async () => {
    const { Config } = await import('../../../src/config.js');
    expect(Config.parse({ repos: [{ name: 'a/b', components: { core: ['src'] } }] }).repos[0]!.components).toEqual({ core: ['src'] });
    const bad = Config.safeParse({ repos: [{ name: 'a/b', components: { core: ['../x'] } }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toBe('must be a path inside the repository');
    expect(Config.safeParse({ repos: [{ name: 'a/b', components: { core: [] } }] }).success).toBe(false);
  });
});
