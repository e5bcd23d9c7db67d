/**
 * Reading one workflow file: YAML 1.2 core parsing and the validity rules of ROUTING.md
 * sections 3, 4 and 5. Pure: text in, triggers or an invalid-file reason out.
 */
import { isAlias, isCollection, isMap, isNode, isScalar, isSeq, parseDocument, visit, type Document, type Node } from 'yaml';

export type TriggerEvent = 'pull_request' | 'pull_request_target';
export const TRIGGER_EVENTS: readonly TriggerEvent[] = ['pull_request', 'pull_request_target'];

export type FilterKey = 'branches' | 'branches-ignore' | 'paths' | 'paths-ignore';

/** Machine-readable codes that start every invalid-file reason (`<code>: <detail>`). */
export type InvalidCode =
  | 'yaml-syntax'
  | 'duplicate-key'
  | 'unknown-tag'
  | 'unresolved-alias'
  | 'not-a-mapping'
  | 'unknown-root-key'
  | 'missing-jobs'
  | 'invalid-job'
  | 'invalid-on'
  | 'invalid-event'
  | 'invalid-filter'
  | 'exclusive-filters'
  | 'invalid-pattern';

export function invalidReason(code: InvalidCode, detail: string): string {
  return `${code}: ${detail}`;
}

/** A `pull_request` / `pull_request_target` entry of `on`, with its filters as written. */
export interface TriggerSpec {
  readonly event: TriggerEvent;
  /** `null` when `types` is absent (GitHub's default types apply). */
  readonly types: readonly string[] | null;
  readonly filters: Readonly<Partial<Record<FilterKey, readonly string[]>>>;
}

export type ParsedWorkflow =
  | { readonly ok: true; readonly events: readonly string[]; readonly triggers: readonly TriggerSpec[] }
  | { readonly ok: false; readonly reason: string };

/** Root keys of `workflow-root` (the root mapping is closed). */
const ROOT_KEYS: ReadonlySet<string> = new Set(['on', 'name', 'run-name', 'description', 'permissions', 'env', 'defaults', 'concurrency', 'jobs']);

/** Tags of the YAML 1.2 core schema; any other explicit tag is "Unexpected tag" on GitHub. */
const CORE_TAGS: ReadonlySet<string> = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`),
);

/** Filter keys whose value must be a string or a list of strings (languageservices `convertOn`). */
const LIST_KEYS: readonly string[] = ['types', 'branches', 'branches-ignore', 'tags', 'tags-ignore', 'paths', 'paths-ignore', 'versions', 'names', 'workflows'];

class Invalid extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

function fail(code: InvalidCode, detail: string): never {
  throw new Invalid(invalidReason(code, detail));
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/:$/, '');
}

/** The node an alias points at (aliases are allowed since 2025; checked resolvable up front). */
function deref(doc: Document, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isAlias(current) && hops < 100; hops++) current = current.resolve(doc);
  return current;
}

function isNullNode(node: unknown): boolean {
  return node === null || node === undefined || (isScalar(node) && node.value === null);
}

/** Key of a mapping pair as a string when it is a string scalar, else undefined. */
function stringKey(doc: Document, key: unknown): string | undefined {
  const k = deref(doc, key);
  return isScalar(k) && typeof k.value === 'string' ? k.value : undefined;
}

/** How a key is shown in a reason: strings as they are, other scalars by their source. */
function showKey(doc: Document, key: unknown): string {
  const k = deref(doc, key);
  if (isScalar(k)) return typeof k.value === 'string' ? k.value : (k.source ?? String(k.value));
  return isNode(k) ? k.toString() : String(k);
}

function mapGet(doc: Document, map: unknown, name: string): { found: boolean; value: unknown } {
  if (!isMap(map)) return { found: false, value: undefined };
  for (const pair of map.items) {
    if (stringKey(doc, pair.key) === name) return { found: true, value: deref(doc, pair.value) };
  }
  return { found: false, value: undefined };
}

/**
 * A scalar list entry as text. Strings are taken as they are; another plain scalar (`- 3.10`,
 * read by YAML 1.2 as the number 3.1) is taken as written in the file, so the pattern is the
 * text the user sees. Null and collections are not patterns.
 */
function scalarText(doc: Document, node: unknown): string | undefined {
  const n = deref(doc, node);
  if (!isScalar(n) || n.value === null) return undefined;
  if (typeof n.value === 'string') return n.value;
  return n.source ?? String(n.value);
}

/** `types`/`branches`/`paths`/…: a single string or a list of strings (section 5). */
function toStringList(doc: Document, node: unknown, where: string): string[] {
  const single = scalarText(doc, node);
  if (single !== undefined) return [single];
  const n = deref(doc, node);
  if (!isSeq(n)) fail('invalid-filter', `${where} must be a string or a list of strings`);
  return n.items.map((item, i) => {
    const text = scalarText(doc, item);
    if (text === undefined) fail('invalid-filter', `${where}[${i}] must be a string`);
    return text;
  });
}

function checkSyntax(doc: Document): void {
  const error = doc.errors[0];
  if (error) {
    fail(error.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax', firstLine(error.message));
  }
  // The `yaml` package only warns on an unknown tag such as `- !docs/**` and resolves it as a
  // string; GitHub's reader throws "Unexpected tag". Explicit tags outside the core schema
  // (`!!binary`, `!!set`, …) are refused the same way.
  const unresolved = doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (unresolved) fail('unknown-tag', firstLine(unresolved.message));
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        if (node.resolve(doc) === undefined) {
          // An unquoted `**/README.md` is an alias named `*/README.md` (cheat sheet: parse error).
          fail('unresolved-alias', `alias '*${node.source}' has no anchor before it (quote patterns that start with '*')`);
        }
        return undefined;
      }
      if ((isScalar(node) || isCollection(node)) && node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
        fail('unknown-tag', `unexpected tag '${node.tag}'`);
      }
      return undefined;
    },
  });
}

function checkRoot(doc: Document): void {
  const root = deref(doc, doc.contents);
  if (!isMap(root)) fail('not-a-mapping', 'the file is not a YAML mapping');
  for (const pair of root.items) {
    const key = stringKey(doc, pair.key);
    if (key === undefined || !ROOT_KEYS.has(key)) fail('unknown-root-key', `unexpected key '${showKey(doc, pair.key)}' at the top level`);
  }
  const jobs = mapGet(doc, root, 'jobs');
  if (!jobs.found) fail('missing-jobs', "required key 'jobs' is missing");
  if (!isMap(jobs.value)) fail('missing-jobs', "'jobs' is not a mapping");
  for (const pair of jobs.value.items) {
    const job = deref(doc, pair.value);
    const id = showKey(doc, pair.key);
    if (!isMap(job)) fail('invalid-job', `job '${id}' is not a mapping`);
    if (!mapGet(doc, job, 'runs-on').found && !mapGet(doc, job, 'uses').found) {
      fail('invalid-job', `job '${id}' has neither 'runs-on' nor 'uses'`);
    }
  }
}

interface EventEntry {
  readonly name: string;
  /** The event's configuration mapping, or undefined for "no configuration". */
  readonly config: unknown;
}

/** Normalizes every shape of `on` (section 5) into event entries, validating their shape. */
function readOn(doc: Document): EventEntry[] {
  const root = deref(doc, doc.contents);
  const on = mapGet(doc, root, 'on');
  if (!on.found || isNullNode(on.value)) return [];
  const value = on.value;
  if (isScalar(value)) {
    if (typeof value.value !== 'string') fail('invalid-on', "'on' must be an event name, a list of event names or a mapping");
    return [{ name: value.value, config: undefined }];
  }
  if (isSeq(value)) {
    return value.items.map((item, i) => {
      const n = deref(doc, item);
      if (!isScalar(n) || typeof n.value !== 'string') fail('invalid-on', `on[${i}] must be an event name`);
      return { name: n.value, config: undefined };
    });
  }
  if (!isMap(value)) fail('invalid-on', "'on' must be an event name, a list of event names or a mapping");
  return value.items.map((pair) => {
    const name = stringKey(doc, pair.key);
    if (name === undefined) fail('invalid-on', `event name '${showKey(doc, pair.key)}' is not a string`);
    const config = deref(doc, pair.value);
    if (isNullNode(config)) return { name, config: undefined };
    if (name === 'schedule') {
      if (!isSeq(config)) fail('invalid-event', 'on.schedule must be a list');
      return { name, config: undefined };
    }
    if (!isMap(config)) fail('invalid-event', `on.${name} must be a mapping or empty`);
    if (name !== 'workflow_call' && name !== 'workflow_dispatch') {
      for (const key of LIST_KEYS) {
        const entry = mapGet(doc, config, key);
        if (entry.found) toStringList(doc, entry.value, `on.${name}.${key}`);
      }
    }
    return { name, config };
  });
}

/**
 * Parses a workflow file and applies the file-level validity rules. Never throws for bad input:
 * an invalid file comes back as `{ ok: false, reason }`.
 */
export function parseWorkflow(text: string): ParsedWorkflow {
  try {
    const doc = parseDocument(text, {
      version: '1.2',
      schema: 'core',
      uniqueKeys: true,
      // Merge keys are not supported on GitHub: with merge off, `<<` is an ordinary key, so
      // inside `on.<event>` it is an unknown key and ignored, and at the root it is an unknown
      // root key. ROUTING.md section 19 point 7 (ignored key vs rejected file) is decided
      // here: ignored, because the service's `on-mapping` schema accepts any key under an event.
      merge: false,
      prettyErrors: true,
      strict: true,
    });
    checkSyntax(doc);
    checkRoot(doc);
    const events = readOn(doc);
    // Section 4 exclusive filters. Section 19 point 8 decided: a conflict under any event,
    // `push` included, makes the whole file invalid, because GitHub reports it with a file
    // position when the file is loaded, before any event is matched.
    for (const { name, config } of events) {
      for (const [a, b] of [['branches', 'branches-ignore'], ['paths', 'paths-ignore']] as const) {
        if (mapGet(doc, config, a).found && mapGet(doc, config, b).found) {
          fail('exclusive-filters', `on.${name} defines both ${a} and ${b}; you may only define one of them for a single event`);
        }
      }
    }
    const triggers: TriggerSpec[] = [];
    for (const event of TRIGGER_EVENTS) {
      // A duplicate event key is a duplicate-key YAML error, so each event appears once at most.
      const entry = events.find((e) => e.name === event);
      if (!entry) continue;
      const typesEntry = mapGet(doc, entry.config, 'types');
      const filters: Partial<Record<FilterKey, readonly string[]>> = {};
      for (const key of ['branches', 'branches-ignore', 'paths', 'paths-ignore'] as const) {
        const found = mapGet(doc, entry.config, key);
        if (found.found) filters[key] = toStringList(doc, found.value, `on.${event}.${key}`);
      }
      triggers.push({
        event,
        types: typesEntry.found ? toStringList(doc, typesEntry.value, `on.${event}.types`) : null,
        filters,
      });
    }
    return { ok: true, events: events.map((e) => e.name), triggers };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, reason: error.reason };
    throw error;
  }
}
