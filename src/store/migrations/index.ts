import type { Migration } from '../migrate.js';
import { migration0001 } from './0001-core.js';
import { migration0008 } from './0008-github.js';

/** Ordered list of migrations. Add a file and one line; never edit a shipped migration. */
export const migrations: readonly Migration[] = [
  migration0001,
  migration0008,
].sort((a, b) => a.id - b.id);
