import type { RegisterCommand } from './types.js';

/** One command module: the top-level command names it registers and how to load it. */
export interface CommandModule {
  readonly names: readonly string[];
  load(): Promise<RegisterCommand>;
}

/**
 * Command groups, in help order. Each module exports one `register…` function; add an entry here
 * with the top-level names it registers (a test checks the names against what the module adds).
 * Modules are imported only when one of their commands runs, so `r2v status` does not load the
 * routing evaluator and `r2v --help` loads none of them (see `cli.ts`).
 */
export const commandModules: readonly CommandModule[] = [
  { names: ['init', 'repo', 'run', 'shard', 'merge', 'status', 'retry'], load: async () => (await import('./core.js')).registerCore },
  { names: ['import', 'threads'], load: async () => (await import('./github.js')).registerGitHub },
  { names: ['route'], load: async () => (await import('./route.js')).registerRoute },
  { names: ['resolve', 'diff'], load: async () => (await import('./git.js')).registerGit },
  { names: ['probe'], load: async () => (await import('./probe.js')).registerProbe },
  { names: ['pairs'], load: async () => (await import('./pairs.js')).registerPairs },
  { names: ['export', 'verify', 'package', 'score', 'baselines', 'preflight'], load: async () => (await import('./export.js')).registerExport },
  { names: ['grade-merge'], load: async () => (await import('./grade-merge.js')).registerGradeMerge },
  { names: ['forward-pairs'], load: async () => (await import('./protocol.js')).registerProtocol },
  { names: ['inspect'], load: async () => (await import('./inspect-forward.js')).registerInspectForward },
  { names: ['inspect'], load: async () => (await import('./inspect-backward.js')).registerInspectBackward },
  { names: ['review'], load: async () => (await import('./review.js')).registerReview },
];
