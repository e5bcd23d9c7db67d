import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { PathAutomaton, readsBackwards } from '../../../src/routing/automaton.js';
import { compilePattern, compileWorkflows, PatternError, type RouteContext, type WorkflowFile } from '../../../src/routing/index.js';
import { seededRandom } from '../../../src/util/random.js';

/**
 * The automaton that reads every path pattern of a context at once (automaton.ts) against the
 * pattern regexes (pattern.ts, the judge), one pattern at a time and many at once, on hand-written
 * cases of ROUTING.md section 10 and on generated patterns and paths; and against minimatch on the
 * part of the language where the two agree (whole-segment `**`, `*`, classes, literals).
 */

/**
 * For each body: does the automaton of all `bodies` say that it matches `path`? Both ways of
 * reading are asked (from the start and from the end of the path) and must agree.
 */
function automatonMatches(bodies: readonly string[], maxStates?: number): (path: string) => boolean[] {
  const forward = new PathAutomaton(bodies, false, maxStates);
  const backward = new PathAutomaton(bodies, true, maxStates);
  const read = (a: PathAutomaton, path: string): boolean[] => {
    const accepted = new Set(a.accepted(a.run(path)));
    return bodies.map((_, k) => accepted.has(k));
  };
  return (path) => {
    const answer = read(forward, path);
    expect(read(backward, path), `read backwards: ${JSON.stringify(path)}`).toEqual(answer);
    return answer;
  };
}

const one = (body: string, path: string): boolean => automatonMatches([body])(path)[0]!;

describe('PathAutomaton: hand-written cases of section 10', () => {
  it.each([
    // `*` does not cross `/`; `**` does; `**/` may match nothing.
    ['*', 'a.txt', true],
    ['*', 'a/b.txt', false],
    ['*', '', true],
    ['*.js', 'src/a.js', false],
    ['**', 'a/b/c', true],
    ['**', '', true],
    ['**/x', 'x', true],
    ['**/x', 'a/b/x', true],
    ['**/x', 'ax', false],
    ['**/x', '/x', false],
    ['**.md', 'a/b.md', true],
    ['**/*.md', 'a/b.md', true],
    ['**/*.md', 'b.md', true],
    ['**/*.md', '/b.md', false],
    ['docs/**', 'docs/a/b', true],
    ['docs/**', 'docs', false],
    ['a/**', 'a/', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['a/**/b', 'a//b', false],
    // Trailing slash: files never end in `/`, so `docs/` matches only the string `docs/`.
    ['docs/', 'docs', false],
    ['docs/', 'docs/a', false],
    ['docs/', 'docs/', true],
    // `?` and `+` quantify the preceding character; literal when first.
    ['*.jsx?', 'x.js', true],
    ['*.jsx?', 'x.jsx', true],
    ['*.jsx?', 'x.jsxx', false],
    ['a+', 'aaa', true],
    ['a+', '', false],
    ['ab+c', 'abbbc', true],
    ['ab+c', 'ac', false],
    ['+a', '+a', true],
    ['?a', '?a', true],
    ['?a', 'a', false],
    ['*?', 'abc', true],
    ['a??', 'a', true],
    ['[ab]+x', 'abbax', true],
    ['[ab]?x', 'x', true],
    ['[ab]?x', 'cx', false],
    // Character classes.
    ['[abc]', 'b', true],
    ['[abc]', 'd', false],
    ['[a-c0-2]x', '1x', true],
    ['[A-Z]', 'Q', true],
    ['[A-Z]', 'q', false],
    ['v[12].[0-9]', 'v1.7', true],
    ['v[12].[0-9]', 'v3.7', false],
    // Escaped characters are literal.
    ['\\*', '*', true],
    ['\\*', 'a', false],
    ['a\\?', 'a?', true],
    ['a\\?', 'a', false],
    ['\\[x]', '[x]', true],
    ['a\\+', 'a+', true],
    ['a\\++', 'a+++', true],
    // Dot files: `*` and `**` match names starting with a dot.
    ['*', '.gitignore', true],
    ['**/*', 'a/.hidden', true],
    ['.github/**', '.github/workflows/ci.yml', true],
    ['a.b', 'axb', false],
    // Case-sensitive.
    ['README.md', 'readme.md', false],
    // Unicode: BMP and beyond, quantified as whole characters.
    ['é+', 'ééé', true],
    ['docs/é*.md', 'docs/été.md', true],
    ['😀+', '😀😀', true],
    ['😀+', '😀\ud83d', false],
    ['a😀?b', 'ab', true],
    ['a😀?b', 'a😀b', true],
    ['*', '😀/x', false],
    ['**', '😀/x', true],
    ['*/x', '😀/x', true],
    ['**', 'line\nbreak', true],
    ['*', 'line\nbreak', true],
  ])('%s on %j → %s (as the regex)', (pattern, path, expected) => {
    expect(compilePattern(pattern).regex.test(path)).toBe(expected);
    expect(one(pattern, path)).toBe(expected);
  });

  it('tells which of many patterns match in one pass, whatever their order', () => {
    const bodies = ['**', 'docs/**', '**/*.md', 'docs/*', '*.md', 'docs/a.md', 'src/**', 'a+.md'];
    const match = automatonMatches(bodies);
    expect(match('docs/a.md')).toEqual([true, true, true, true, false, true, false, false]);
    expect(match('aa.md')).toEqual([true, false, true, false, true, false, false, true]);
    expect(match('src/x/y.c')).toEqual([true, false, false, false, false, false, true, false]);
    expect(match('')).toEqual([true, false, false, false, true, false, false, false].map((_, k) => bodies[k] === '**'));
  });

  it('stops reading only where what follows can change nothing, and not at a finished literal', () => {
    // `docs/**` alone: after `docs/` every path matches; `ab` alone: after `ab` one more character undoes the match.
    const match = automatonMatches(['docs/**', 'ab', '**/x', 'a/**/b']);
    expect(match('docs/a/b/c')).toEqual([true, false, false, false]);
    expect(match('ab')).toEqual([false, true, false, false]);
    expect(match('abc')).toEqual([false, false, false, false]);
    expect(match('ab/x')).toEqual([false, false, true, false]);
    expect(match('a/x/b')).toEqual([false, false, false, true]);
    expect(match('a/x/bc')).toEqual([false, false, false, false]);
    expect(automatonMatches(['**'])('any/thing')).toEqual([true]);
    expect(automatonMatches(['**', 'x'])('x')).toEqual([true, true]);
  });

  it('reads backwards the bodies that start with `**` and end in a literal', () => {
    expect(['**/*.md', '**.md', '**/CMakeLists.txt', '**/a+b', '**x'].map(readsBackwards)).toEqual([true, true, true, true, true]);
    expect(['docs/**', '**', '**/test/**', '**/*.js?', '**/x+', '*.md', 'a/**/b'].map(readsBackwards)).toEqual([false, false, false, false, false, false, false]);
  });

  it('refuses a pattern with a lone surrogate (the regex reads such a pattern by code points)', () => {
    expect(PathAutomaton.supports('a\ud83d*')).toBe(false);
    expect(PathAutomaton.supports('\ude00')).toBe(false);
    expect(PathAutomaton.supports('😀*')).toBe(true);
    expect(PathAutomaton.supports('docs/**')).toBe(true);
  });
});

const ATOMS = ['a', 'b', 'c', '.', '-', '_', '/', 'x', '0', '1', 'é', '😀', '[abc]', '[a-c0-1]', '[x]', '\\*', '\\?', '\\[', '\\+', '\\\\'];
const PATH_CHARS = ['a', 'b', 'c', '.', '-', '/', '/', 'x', '0', '1', 'é', '😀', '*', '?', '[', '+', '\\', ']', 'z'];

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

/** A random pattern body: atoms, `*`, `**`, `**\/`, quantifiers; not always one compilePattern accepts. */
function randomBody(rand: () => number): string {
  let out = '';
  const n = 1 + Math.floor(rand() * 7);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.15) out += '*';
    else if (r < 0.25) out += '**';
    else if (r < 0.32) out += '**/';
    else out += pick(rand, ATOMS);
    const q = rand();
    if (q < 0.08) out += '?';
    else if (q < 0.14) out += '+';
  }
  return out;
}

/** A path made from a body by expanding its wildcards at random (so that many paths match), or from random characters. */
function randomPath(rand: () => number, body: string): string {
  if (rand() < 0.3) return Array.from({ length: Math.floor(rand() * 10) }, () => pick(rand, PATH_CHARS)).join('');
  let out = '';
  const chars = Array.from(body);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '*') {
      const k = Math.floor(rand() * 3);
      for (let j = 0; j < k; j++) out += pick(rand, chars[i + 1] === '*' ? PATH_CHARS : PATH_CHARS.filter((c) => c !== '/'));
    } else if (ch === '[') {
      const end = chars.indexOf(']', i);
      out += pick(rand, ['a', 'b', 'c', '0', 'x']);
      i = end;
    } else if (ch === '\\') {
      out += chars[i + 1] ?? '';
      i++;
    } else if ((ch === '?' || ch === '+') && i > 0) {
      if (rand() < 0.5) out += out.slice(-1);
    } else if (rand() < 0.95) out += ch;
  }
  // Now and then a small change: a character dropped or added.
  if (rand() < 0.2 && out.length > 0) {
    const at = Math.floor(rand() * out.length);
    out = out.slice(0, at) + (rand() < 0.5 ? '' : pick(rand, PATH_CHARS)) + out.slice(at + 1);
  }
  return out;
}

describe('PathAutomaton: differential against the regexes on generated patterns and paths', () => {
  it('agrees with each pattern regex, one pattern at a time', () => {
    const rand = seededRandom(1234);
    let checked = 0;
    let matched = 0;
    for (let k = 0; k < 1500; k++) {
      const body = randomBody(rand);
      let regex: RegExp;
      try {
        regex = compilePattern(body).regex;
      } catch (error) {
        if (!(error instanceof PatternError)) throw error;
        continue;
      }
      const match = automatonMatches([body]);
      for (let j = 0; j < 12; j++) {
        const path = randomPath(rand, body);
        const expected = regex.test(path);
        expect(match(path)[0], `${JSON.stringify(body)} on ${JSON.stringify(path)}`).toBe(expected);
        checked++;
        if (expected) matched++;
      }
    }
    // Both answers are well represented.
    expect(checked).toBeGreaterThan(5000);
    expect(matched).toBeGreaterThan(checked / 10);
    expect(matched).toBeLessThan(checked * 0.9);
  });

  it('agrees with every regex at once, for groups of patterns, also when its states are dropped and built again', () => {
    const rand = seededRandom(99);
    for (let g = 0; g < 60; g++) {
      const bodies: string[] = [];
      const regexes: RegExp[] = [];
      while (bodies.length < 20) {
        const body = randomBody(rand);
        try {
          regexes.push(compilePattern(body).regex);
          bodies.push(body);
        } catch (error) {
          if (!(error instanceof PatternError)) throw error;
        }
      }
      // A bound of 3 states: the table is dropped again and again.
      const matchers = [automatonMatches(bodies), automatonMatches(bodies, 3)];
      for (let j = 0; j < 150; j++) {
        const path = randomPath(rand, pick(rand, bodies));
        const expected = regexes.map((r) => r.test(path));
        for (const match of matchers) expect(match(path), JSON.stringify(path)).toEqual(expected);
      }
    }
  });
});

describe('PathAutomaton: against minimatch where the two languages agree', () => {
  /** Segments of literals, `*` and classes, or a whole-segment `**`; no `?`/`+` (quantifiers here, single characters there). */
  function segmentPattern(rand: () => number): string {
    const n = 1 + Math.floor(rand() * 4);
    return Array.from({ length: n }, () => {
      if (rand() < 0.2) return '**';
      const m = 1 + Math.floor(rand() * 3);
      return Array.from({ length: m }, () => pick(rand, ['a', 'b', '.md', 'é', '*', '[ab]', '[a-c]', 'x'])).join('');
    }).join('/');
  }

  it('gives the same answers as minimatch (dot: true) on whole-segment patterns and plain paths', () => {
    const rand = seededRandom(77);
    let checked = 0;
    let matched = 0;
    for (let k = 0; k < 400; k++) {
      const body = segmentPattern(rand);
      // `X/**` also matches `X` in minimatch, never here; minimatch reads `**` glued to other characters as `*`: left out.
      if (body.endsWith('/**') || body.split('/').some((seg) => seg.includes('**') && seg !== '**')) continue;
      const match = automatonMatches([body]);
      for (let j = 0; j < 15; j++) {
        const segments = Array.from({ length: 1 + Math.floor(rand() * 4) }, () =>
          Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(rand, ['a', 'b', 'c', '.md', 'é', 'x'])).join(''),
        );
        const path = segments.join('/');
        const expected = minimatch(path, body, { dot: true });
        expect(match(path)[0], `${body} on ${path}`).toBe(expected);
        checked++;
        if (expected) matched++;
      }
    }
    expect(checked).toBeGreaterThan(3000);
    expect(matched).toBeGreaterThan(100);
  });
});

describe('routers built on the automaton agree with the explained evaluation', () => {
  const JOB = 'jobs:\n  t:\n    runs-on: ubuntu-latest\n';
  const CTX: RouteContext = { event: 'pull_request', action: 'synchronize', base_branch: 'main' };
  const quote = (p: string): string => `'${p.replaceAll("'", "''")}'`;

  it('on generated lists with `!` patterns in any order, as paths and as paths-ignore, one-path and multi-path change sets', () => {
    const rand = seededRandom(2024);
    for (let round = 0; round < 8; round++) {
      const bodies: string[] = [];
      while (bodies.length < 24) {
        const body = randomBody(rand);
        try {
          compilePattern(body);
          bodies.push(body);
        } catch (error) {
          if (!(error instanceof PatternError)) throw error;
        }
      }
      const files: WorkflowFile[] = Array.from({ length: 12 }, (_, i) => {
        const list = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => `${rand() < 0.35 ? '!' : ''}${pick(rand, bodies)}`);
        const key = rand() < 0.5 ? 'paths' : 'paths-ignore';
        return { path: `.github/workflows/w${String(i).padStart(2, '0')}.yml`, text: `on:\n  pull_request:\n    ${key}: [${list.map(quote).join(', ')}]\n${JOB}` };
      });
      const compiled = compileWorkflows(files);
      const reference = compileWorkflows(files);
      const router = compiled.routerFor(CTX);
      for (let j = 0; j < 300; j++) {
        const change = Array.from({ length: rand() < 0.5 ? 1 : 1 + Math.floor(rand() * 4) }, () => randomPath(rand, pick(rand, bodies)));
        expect([...router.activated(change)], JSON.stringify(change)).toEqual(reference.route(change, CTX).activated);
      }
    }
  });

  it('with a pattern the automaton refuses (a lone surrogate), the regexes judge and the answers stay right', () => {
    const files: WorkflowFile[] = [
      { path: '.github/workflows/a.yml', text: `on:\n  pull_request:\n    paths: ['docs/\ud83d*', '**.md', '!x/**']\n${JOB}` },
      { path: '.github/workflows/b.yml', text: `on:\n  pull_request:\n    paths-ignore: ['**.md']\n${JOB}` },
    ];
    const compiled = compileWorkflows(files);
    const router = compiled.routerFor(CTX);
    for (const change of [['docs/\ud83dx'], ['docs/a'], ['x/a.md'], ['a.md'], ['docs/\ud83dx', 'a.md'], ['src/a.c']]) {
      expect([...router.activated(change)], JSON.stringify(change)).toEqual(compiled.route(change, CTX).activated);
    }
    expect([...router.activated(['docs/\ud83dx'])]).toEqual(['.github/workflows/a.yml', '.github/workflows/b.yml']);
  });
});
