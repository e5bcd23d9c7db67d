import type { RegisterCommand } from './types.js';
import { registerCore } from './core.js';

/**
 * Command groups, in help order. Each module exports one `register…` function;
 * add an import and one entry here.
 */
export const commands: readonly RegisterCommand[] = [
  registerCore,
];
