/**
 * Workflow files compiled once: parsed, validated, and their patterns turned into regexes.
 * Shared by the explained evaluation (evaluate.ts) and the fast path (fast.ts).
 */
import { parseWorkflow, invalidReason, type FilterKey, type TriggerEvent, type TriggerSpec } from './parse.js';
import { compilePattern, PatternError, type CompiledPattern } from './pattern.js';

export interface WorkflowFile {
  readonly path: string;
  readonly text: string;
}

/** "Diffs are limited to 300 files" (section 12). */
export const DIFF_LIMIT = 300;
export const DEFAULT_TYPES: readonly string[] = ['opened', 'synchronize', 'reopened'];

const WORKFLOW_PATH = /^\.github\/workflows\/[^/]+\.(?:yml|yaml)$/;

/**
 * Section 2: only files directly in `.github/workflows/` ending in `.yml` or `.yaml`.
 * Section 19 point 10 decided: a name starting with a dot (`.ci.yml`) is a workflow (the only
 * evidence says such files run). Upper-case extensions (`.YML`) are not: the match is
 * case-sensitive, like every other path match in this model.
 */
export function isWorkflowPath(path: string): boolean {
  return WORKFLOW_PATH.test(path);
}

export interface CompiledTrigger {
  readonly event: TriggerEvent;
  readonly types: readonly string[] | null;
  readonly filters: Readonly<Partial<Record<FilterKey, readonly CompiledPattern[]>>>;
  /** Set when a pattern of this trigger does not compile: reaching it makes the file invalid. */
  readonly patternError?: string;
}

export type CompiledFile =
  | { readonly kind: 'skipped'; readonly path: string }
  | { readonly kind: 'invalid'; readonly path: string; readonly reason: string }
  | { readonly kind: 'workflow'; readonly path: string; readonly events: readonly string[]; readonly triggers: readonly CompiledTrigger[] };

function compileTrigger(spec: TriggerSpec): CompiledTrigger {
  const filters: Partial<Record<FilterKey, readonly CompiledPattern[]>> = {};
  let patternError: string | undefined;
  for (const key of ['branches', 'branches-ignore', 'paths', 'paths-ignore'] as const) {
    const list = spec.filters[key];
    if (list === undefined) continue;
    const compiled: CompiledPattern[] = [];
    for (const pattern of list) {
      try {
        compiled.push(compilePattern(pattern));
      } catch (error) {
        if (!(error instanceof PatternError)) throw error;
        patternError ??= invalidReason('invalid-pattern', `on.${spec.event}.${key}: ${error.message}`);
      }
    }
    filters[key] = compiled;
  }
  return { event: spec.event, types: spec.types, filters, ...(patternError ? { patternError } : {}) };
}

export function compileFile(file: WorkflowFile): CompiledFile {
  if (!isWorkflowPath(file.path)) return { kind: 'skipped', path: file.path };
  const parsed = parseWorkflow(file.text);
  if (!parsed.ok) return { kind: 'invalid', path: file.path, reason: parsed.reason };
  return { kind: 'workflow', path: file.path, events: parsed.events, triggers: parsed.triggers.map(compileTrigger) };
}

export type CompiledWorkflow = Extract<CompiledFile, { kind: 'workflow' }>;

/**
 * Section 19 point 2 decided: patterns are matched against the short branch name, as both
 * reimplementations do, so a pattern written `refs/heads/main` never matches. A context that
 * gives the full ref is reduced to the short name first.
 */
export function shortBranch(base: string): string {
  return base.startsWith('refs/heads/') ? base.slice('refs/heads/'.length) : base;
}

