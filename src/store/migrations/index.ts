import type { Migration } from '../migrate.js';
import { migration0001 } from './0001-core.js';

/** Ordered list of migrations. Add a file and one line; never edit a shipped migration. */
export const migrations: readonly Migration[] = [
  migration0001,
].sort((a, b) => a.id - b.id);
