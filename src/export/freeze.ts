/**
 * Frozen releases: `r2v export --freeze NAME` writes the manifests into `<out>/NAME/` with a
 * FROZEN.json naming every file and its SHA-256, the r2v version, the evaluator, baseline and
 * label rule versions. A directory holding FROZEN.json is never written again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_VERSIONS } from '../baselines/index.js';
import { UsageError } from '../errors.js';
import { LABEL_RULES_VERSION } from '../labels/rules.js';
import { EVALUATOR_ID } from '../routing/index.js';
import { canonicalJson, sha256 } from '../util/canonical.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { SCHEMA_VERSION } from './records.js';
import { r2vVersion } from '../version.js';

export const FROZEN_FILE = 'FROZEN.json';

/** A release name: letters, digits, dot, dash and underscore, starting with a letter or digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function checkFreezeName(name: string): void {
  if (!NAME.test(name)) throw new UsageError(`--freeze ${JSON.stringify(name)}: a release name is letters, digits, '.', '-' and '_' (starting with a letter or digit)`);
}

/** Refuses to write into a frozen directory (one line naming it and its release). */
export function refuseFrozen(dir: string): void {
  const path = join(dir, FROZEN_FILE);
  if (!existsSync(path)) return;
  let name = '?';
  try {
    name = String((JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name ?? '?');
  } catch {
    // an unreadable FROZEN.json still marks the directory frozen
  }
  throw new UsageError(`--out ${dir}: frozen as release ${name} (${FROZEN_FILE}); export into another directory`);
}

export interface FrozenManifest {
  name: string;
  r2v_version: string;
  schema_version: number;
  evaluator: string;
  baselines: Record<string, string>;
  labels: string;
  files: Record<string, string>;
}

/** Writes FROZEN.json over every file of `dir` (written by export just before). Deterministic. */
export function writeFrozen(dir: string, name: string): FrozenManifest {
  const files: Record<string, string> = {};
  for (const f of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isFile() && d.name !== FROZEN_FILE).map((d) => d.name).sort()) {
    files[f] = sha256(readFileSync(join(dir, f)));
  }
  const frozen: FrozenManifest = {
    name,
    r2v_version: r2vVersion(),
    schema_version: SCHEMA_VERSION,
    evaluator: EVALUATOR_ID,
    baselines: { ...BASELINE_VERSIONS },
    labels: LABEL_RULES_VERSION,
    files,
  };
  writeFileAtomic(join(dir, FROZEN_FILE), `${JSON.stringify(JSON.parse(canonicalJson(frozen)), null, 2)}\n`);
  return frozen;
}
