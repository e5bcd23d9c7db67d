import { tokenEnvs, type Config } from '../config.js';
import { secretsInEnv, type Logger } from '../log.js';
import { createServices } from '../services.js';
import type { Store } from '../store/db.js';
import type { StageContext } from '../stages/types.js';

/** Builds the context every stage receives. `options.dataDir` and `options.env` are always set. */
export function createStageContext(input: {
  store: Store;
  config: Config;
  log: Logger;
  signal: AbortSignal;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  options?: Record<string, unknown>;
}): StageContext {
  return {
    store: input.store,
    config: input.config,
    log: input.log,
    signal: input.signal,
    now: input.now ?? (() => new Date()),
    services: createServices(),
    options: { ...(input.options ?? {}), dataDir: input.dataDir, env: input.env },
    secrets: [...new Set([...tokenEnvs(input.config).map((name) => input.env[name]?.trim() ?? ''), ...secretsInEnv(input.env)].filter((s) => s.length >= 4))],
  };
}
