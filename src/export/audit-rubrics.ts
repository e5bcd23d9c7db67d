/**
 * The rubric part of `r2v package audit`: every scaffold under grading/rubrics/ is a valid
 * repo_rubric.v1 document with its oracle row, and no rubric or oracle row sits on the agent side
 * (inside a package), whether under its own name or as a copy of a grading file.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUBRICS_DIR } from '../mergeability/emit.js';
import { Rubric, RUBRIC_SCHEMA } from '../mergeability/rubric.js';
import { sha256 } from '../util/canonical.js';
import { GRADING_DIR } from './package.js';

const RUBRIC_FILES = new Set(['rubric.json', 'oracle.json']);

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Findings about grading/rubrics/ itself; fills `digests` with the sha256 of each file there. */
function auditGradingSide(root: string, digests: Set<string>): string[] {
  const f: string[] = [];
  if (!existsSync(root)) return f;
  for (const id of readdirSync(root).filter((e) => !e.startsWith('.')).sort()) {
    const dir = join(root, id);
    const where = `${GRADING_DIR}/${RUBRICS_DIR}/${id}`;
    if (!lstatSync(dir).isDirectory()) {
      f.push(`${where}: not a directory`);
      continue;
    }
    for (const file of readdirSync(dir)) if (RUBRIC_FILES.has(file)) digests.add(sha256(readFileSync(join(dir, file))));
    const oracle = readJson(join(dir, 'oracle.json')) as { emitted?: unknown; task_id?: unknown } | undefined;
    if (oracle === undefined) f.push(`${where}: oracle.json is missing or not JSON`);
    const hasRubric = existsSync(join(dir, 'rubric.json'));
    if (hasRubric) {
      const parsed = Rubric.safeParse(readJson(join(dir, 'rubric.json')));
      if (!parsed.success) f.push(`${where}: rubric.json is not a ${RUBRIC_SCHEMA} document`);
      else if (parsed.data.task_id !== id) f.push(`${where}: rubric.json is for task ${parsed.data.task_id}`);
    }
    if (oracle !== undefined && oracle.emitted !== hasRubric) {
      f.push(`${where}: oracle.json says emitted=${String(oracle.emitted)} but rubric.json is ${hasRubric ? 'present' : 'absent'}`);
    }
  }
  return f;
}

/** Files named rubric.json / oracle.json anywhere under `dir` (symlinks not followed), relative paths. */
function namedFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs)) {
      const path = join(abs, entry);
      const relPath = rel ? `${rel}/${entry}` : entry;
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path, relPath);
      else if (st.isFile() && RUBRIC_FILES.has(entry)) out.push(relPath);
    }
  };
  walk(dir, '');
  return out.sort();
}

function looksLikeRubric(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.schema === RUBRIC_SCHEMA || ('task_id' in v && 'emitted' in v && 'report' in v);
}

/** Findings for the rubric scaffolds of a package directory `dir` holding the packages `names`. */
export function auditRubrics(dir: string, names: readonly string[]): string[] {
  const digests = new Set<string>();
  const findings = auditGradingSide(join(dir, GRADING_DIR, RUBRICS_DIR), digests);
  for (const name of names) {
    for (const rel of namedFiles(join(dir, name))) {
      const path = join(dir, name, rel);
      const bytes = readFileSync(path);
      if (digests.has(sha256(bytes)) || looksLikeRubric(readJson(path))) findings.push(`${name}: rubric data on the agent side at ${rel}`);
    }
  }
  return findings;
}
