import type { Stage } from './types.js';
import { discoverStage } from './discover.js';
import { attributeStage } from './attribute.js';
import { linkStage } from './link.js';
import { resolveStage } from './resolve.js';
import { recoverStage } from './recover.js';
import { validateStage } from './validate.js';
import { sanitizeStage } from './sanitize.js';
import { routeStage } from './route.js';
import { screenStage } from './screen.js';
import { forwardScreenStage } from './forward-screen.js';
import { pairsStage } from './pairs.js';
import { probeStage } from './probe.js';
import { admitStage } from './admit.js';

/**
 * The ordered stage registry. A stage may only `need` stages listed before it
 * (test/unit/stages/registry.test.ts checks it). Add an import and one entry, in pipeline order:
 * discover, attribute, link, resolve, recover, validate, sanitize, route, screen, forward-screen,
 * probe, pairs, admit.
 */
export const stages: readonly Stage<any>[] = [
  discoverStage,
  attributeStage,
  linkStage,
  resolveStage,
  recoverStage,
  validateStage,
  sanitizeStage,
  routeStage,
  screenStage,
  forwardScreenStage,
  probeStage,
  pairsStage,
  admitStage,
];

export function stageNames(list: readonly Stage<any>[] = stages): string[] {
  return list.map((s) => s.name);
}
