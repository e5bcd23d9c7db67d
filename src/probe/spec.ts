/**
 * Probe spec: how to replay a regression report at a commit. One file per case
 * (`<dataDir>/probes/<case-id>.yaml|.yml|.json`) or given by path on the command line.
 *
 * ```yaml
 * setup: ["npm ci", "npm run build"]      # run once per checkout; any failure → setup-failed
 * trigger: "node bin/cli.js --parse bad.txt"
 * symptom:                                 # at least one; ANY matching predicate = symptom
 *   exit_code: [1, 2]
 *   stderr_contains: "TypeError"
 * exercised:                               # every given condition must hold
 *   marker: "parsing bad.txt"
 * timeout_s: 60
 * repeats: 3
 * env: { NODE_ENV: production }
 * network: false
 * draft: false
 * ```
 */
import { readFileSync } from 'node:fs';
import { extname, isAbsolute, normalize } from 'node:path';
import YAML, { LineCounter } from 'yaml';
import { z } from 'zod';
import { UsageError, ValidationError } from '../errors.js';

const Regex = z.string().min(1).superRefine((value, ctx) => {
  try {
    new RegExp(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(error as Error).message}` });
  }
});

const ExitCode = z.number().int().min(0).max(255);

/** A path inside the checkout: relative and not escaping it. */
const RelativePath = z
  .string()
  .min(1)
  .refine((p) => !isAbsolute(p) && !normalize(p).startsWith('..'), 'must be a path relative to the checkout, inside it');

export const JunitPredicate = z
  .object({
    report: RelativePath,
    /** `Class#method`, `classname.name`, `classname::name` or a bare test name. */
    failing_test: z.string().min(1),
  })
  .strict();

export const Symptom = z
  .object({
    exit_code: z.union([ExitCode, z.array(ExitCode).min(1)]).optional(),
    signal: z
      .string()
      .regex(/^(SIG)?[A-Z][A-Z0-9]*$/, 'must be a signal name such as SIGSEGV')
      .transform((s) => (s.startsWith('SIG') ? s : `SIG${s}`))
      .optional(),
    stdout_contains: z.string().min(1).optional(),
    stderr_contains: z.string().min(1).optional(),
    stdout_regex: Regex.optional(),
    stderr_regex: Regex.optional(),
    junit: JunitPredicate.optional(),
  })
  .strict()
  .refine((s) => Object.values(s).some((v) => v !== undefined), 'needs at least one predicate');
export type Symptom = z.infer<typeof Symptom>;

export const Exercised = z
  .object({
    exit_codes: z.array(ExitCode).min(1).optional(),
    /** Text that must appear in stdout or stderr. */
    marker: z.string().min(1).optional(),
  })
  .strict();
export type Exercised = z.infer<typeof Exercised>;

/** Paths (relative to the checkout) that setup produces and the setup cache keeps, e.g. node_modules. */
const SetupCache = z.array(RelativePath).default([]);

export const ProbeSpec = z
  .object({
    kind: z.literal('command').optional(),
    setup: z.array(z.string().min(1)).default([]),
    setup_cache: SetupCache,
    trigger: z.string().min(1),
    symptom: Symptom,
    /** Absent: a run counts as exercised unless the shell could not run the trigger (exit 126/127). */
    exercised: Exercised.default({}),
    timeout_s: z.number().positive().max(86_400).default(60),
    repeats: z.number().int().min(1).max(100).default(3),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string()).default({}),
    network: z.boolean().default(false),
    draft: z.boolean().default(false),
  })
  .strict();
export type ProbeSpec = z.infer<typeof ProbeSpec>;

/**
 * A probe derived from the fixing change's tests: the fix's added and modified test files
 * (`tests`) are applied onto gold's parent and gold, and the repository's test command runs on
 * exactly those files. Expected: pass at the parent, fail at gold.
 *
 * ```yaml
 * kind: transplanted
 * fix: { sha: 3f2a..., pull: 31 }
 * tests: [test/slug-trailing.test.js]
 * test_command: "node --test {tests}"       # {tests}: the files; optional {junit}: a report path
 * setup: ["npm ci --offline"]
 * setup_cache: [node_modules]                # kept per (repository, lockfile digest)
 * ```
 */
export const TransplantedSpec = z
  .object({
    kind: z.literal('transplanted'),
    fix: z.object({ sha: z.string().regex(/^[0-9a-f]{40}$/, 'must be a full commit SHA'), pull: z.number().int().positive().nullable().default(null) }).strict(),
    tests: z.array(RelativePath).min(1),
    test_command: z.string().min(1).refine((t) => t.includes('{tests}'), 'must contain {tests} (replaced by the test files)'),
    setup: z.array(z.string().min(1)).default([]),
    setup_cache: SetupCache,
    timeout_s: z.number().positive().max(86_400).default(120),
    repeats: z.number().int().min(1).max(100).default(3),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string()).default({}),
    network: z.boolean().default(false),
    draft: z.boolean().default(false),
  })
  .strict();
export type TransplantedSpec = z.infer<typeof TransplantedSpec>;

/** Any probe spec: a command probe or a transplanted-test probe. */
export type AnyProbeSpec = ProbeSpec | TransplantedSpec;

export function isTransplanted(spec: AnyProbeSpec): spec is TransplantedSpec {
  return spec.kind === 'transplanted';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    return `${[...path, keys[0]].join('.')}: unknown field${keys.length > 1 ? ` (also ${keys.slice(1).join(', ')})` : ''}`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${path.join('.') || '(root)'}: required`;
  if (issue.code === 'invalid_key' && issue.issues[0]) return `${path.join('.')}: ${issue.issues[0].message}`;
  return `${path.join('.') || '(root)'}: ${issue.message}`;
}

/** Validates an already-parsed value; `source` names the file in errors. */
export function toProbeSpec(raw: unknown, source: string): ProbeSpec {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ValidationError(`${source}: (root): must be a mapping of probe fields`);
  }
  if ((raw as Record<string, unknown>).kind === 'transplanted') {
    throw new ValidationError(`${source}: kind: a transplanted spec is not a command probe (read it with parseAnyProbeSpec)`);
  }
  // reportInput: zod 4 leaves `issue.input` out otherwise, and a wrong type would read as missing.
  const parsed = ProbeSpec.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw new ValidationError(`${source}: ${describeIssue(parsed.error.issues[0]!)}`, { cause: parsed.error });
  return parsed.data;
}

/** Validates a spec of either kind (`kind: transplanted`, else a command probe). */
export function toAnyProbeSpec(raw: unknown, source: string): AnyProbeSpec {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as Record<string, unknown>).kind === 'transplanted') {
    const parsed = TransplantedSpec.safeParse(raw, { reportInput: true });
    if (!parsed.success) throw new ValidationError(`${source}: ${describeIssue(parsed.error.issues[0]!)}`, { cause: parsed.error });
    return parsed.data;
  }
  return toProbeSpec(raw, source);
}

/** Parses spec text (JSON when `source` ends in .json, else YAML). */
export function parseProbeSpec(text: string, source: string): ProbeSpec {
  return toProbeSpec(parseSpecText(text, source), source);
}

/** Parses spec text of either kind. */
export function parseAnyProbeSpec(text: string, source: string): AnyProbeSpec {
  return toAnyProbeSpec(parseSpecText(text, source), source);
}

function parseSpecText(text: string, source: string): unknown {
  let raw: unknown;
  if (extname(source).toLowerCase() === '.json') {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new ValidationError(`${source}: invalid JSON: ${(error as Error).message.split('\n')[0]}`);
    }
  } else {
    const lines = new LineCounter();
    const doc = YAML.parseDocument(text, { uniqueKeys: true, prettyErrors: false, lineCounter: lines });
    if (doc.errors.length > 0) {
      const e = doc.errors[0]!;
      const pos = lines.linePos(e.pos[0]);
      throw new ValidationError(`${source}${pos ? `:${pos.line}:${pos.col}` : ''}: invalid YAML: ${e.message.split('\n')[0]}`);
    }
    raw = doc.toJS();
  }
  return raw;
}

export function loadProbeSpec(path: string): ProbeSpec {
  return parseProbeSpec(readSpecFile(path), path);
}

export function loadAnyProbeSpec(path: string): AnyProbeSpec {
  return parseAnyProbeSpec(readSpecFile(path), path);
}

function readSpecFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${path}: cannot read probe spec (${code === 'ENOENT' ? 'file not found' : (code ?? (error as Error).message)})`);
  }
  return text;
}

/** A spec as YAML text (used for drafts and derived specs). */
export function formatProbeSpec(spec: AnyProbeSpec, header?: string): string {
  const body = YAML.stringify(spec, { lineWidth: 0 });
  return header ? `${header.split('\n').map((l) => `# ${l}`.trimEnd()).join('\n')}\n${body}` : body;
}
