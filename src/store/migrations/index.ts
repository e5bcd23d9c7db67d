import type { Migration } from '../migrate.js';
import { migration0001 } from './0001-core.js';
import { migration0003 } from './0003-backward.js';
import { migration0004 } from './0004-forward.js';
import { migration0005 } from './0005-probe.js';
import { migration0006 } from './0006-pairs.js';
import { migration0007 } from './0007-admission.js';
import { migration0008 } from './0008-github.js';
import { migration0009 } from './0009-review.js';
import { migration0010 } from './0010-shards.js';
import { migration0015 } from './0015-label-overrides.js';
import { migration0017 } from './0017-probe-derived.js';
import { migration0022 } from './0022-workspace.js';

/** Ordered list of migrations. Add a file and one line; never edit a shipped migration. */
export const migrations: readonly Migration[] = [
  migration0001,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0015,
  migration0017,
  migration0022,
].sort((a, b) => a.id - b.id);
