import type { Stage } from './types.js';

/**
 * The ordered stage registry. A stage may only `need` stages listed before it
 * (test/unit/stages/registry.test.ts checks it). Add an import and one entry, in pipeline order:
 * discover, attribute, link, resolve, recover, validate, sanitize, route, screen, forward-screen,
 * probe, pairs, admit.
 */
export const stages: readonly Stage<any>[] = [
];

export function stageNames(list: readonly Stage<any>[] = stages): string[] {
  return list.map((s) => s.name);
}
