import type { RouteContext } from '../../src/routing/index.js';

/**
 * One conformance case. Expected outputs are written by hand from the rule cited in `section`
 * and `source`; they are never produced by running the evaluator.
 */
export interface ConformanceCase {
  readonly name: string;
  /** Section of /work/shared/ROUTING.md (e.g. "§9 paths"). */
  readonly section: string;
  /** The rule and its source (docs page, issue, implementation) the case checks. */
  readonly source: string;
  readonly files: Readonly<Record<string, string>>;
  readonly changed: readonly string[];
  readonly ctx?: Partial<RouteContext>;
  readonly activated: readonly string[];
  /** Expected invalid files: path → reason code (the text before the first ':'). */
  readonly invalid?: Readonly<Record<string, string>>;
  readonly limitApplied?: boolean;
}

export const CI = '.github/workflows/ci.yml';

const JOBS = ['jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:', '      - run: make test', ''].join('\n');

/** A valid workflow with the given `on:` block (full YAML text, starting at column 0). */
export function workflow(on: string): string {
  return `name: ci\n${on}\n${JOBS}`;
}

function indent(text: string, by: number): string {
  const pad = ' '.repeat(by);
  return text
    .split('\n')
    .map((l) => (l.length > 0 ? pad + l : l))
    .join('\n');
}

/** `on: pull_request: <body>` with the body's lines indented under the event. */
export function pr(body = '', event = 'pull_request'): string {
  return workflow(body === '' ? `on:\n  ${event}:` : `on:\n  ${event}:\n${indent(body, 4)}`);
}

/** A single-file case on `.github/workflows/ci.yml`: activated or not. */
export function single(
  name: string,
  section: string,
  source: string,
  text: string,
  changed: readonly string[],
  activated: boolean,
  ctx?: Partial<RouteContext>,
): ConformanceCase {
  return { name, section, source, files: { [CI]: text }, changed, activated: activated ? [CI] : [], ...(ctx ? { ctx } : {}) };
}

/** A single-file case whose file must be reported invalid with `code`. */
export function invalid(name: string, section: string, source: string, text: string, code: string, path = CI): ConformanceCase {
  return { name, section, source, files: { [path]: text }, changed: ['src/a.ts'], activated: [], invalid: { [path]: code } };
}
