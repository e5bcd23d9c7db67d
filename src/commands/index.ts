import type { RegisterCommand } from './types.js';
import { registerCore } from './core.js';
import { registerGitHub } from './github.js';
import { registerInspectForward } from './inspect-forward.js';
import { registerInspectBackward } from './inspect-backward.js';
import { registerRoute } from './route.js';
import { registerGit } from './git.js';
import { registerProbe } from './probe.js';
import { registerPairs } from './pairs.js';
import { registerReview } from './review.js';
import { registerExport } from './export.js';
import { registerGradeMerge } from './grade-merge.js';

/**
 * Command groups, in help order. Each module exports one `register…` function;
 * add an import and one entry here.
 */
export const commands: readonly RegisterCommand[] = [
  registerCore,
  registerGitHub,
  registerRoute,
  registerGit,
  registerProbe,
  registerPairs,
  registerExport,
  registerGradeMerge,
  registerInspectForward,
  registerInspectBackward,
  registerReview,
];
