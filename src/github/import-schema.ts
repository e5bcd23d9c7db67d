/**
 * The import formats as JSON Schema (draft 2020-12), generated from the zod schemas that
 * `r2v import` validates with. `r2v import --schema threads|pulls` prints them; the committed
 * copies in docs/schema/ are kept equal to them by a test.
 */
import { z } from 'zod';
import { PullLine, ThreadLine } from './import.js';

export const IMPORT_SCHEMA_KINDS = ['threads', 'pulls'] as const;
export type ImportSchemaKind = (typeof IMPORT_SCHEMA_KINDS)[number];

const ABOUT: Record<ImportSchemaKind, { title: string; description: string }> = {
  threads: {
    title: 'r2v import --threads line',
    description: 'One JSON object per line: an issue or pull-request thread with its comments (REST shapes); pull_request, closing_issues and commits are optional.',
  },
  pulls: {
    title: 'r2v import --pulls line',
    description: 'One JSON object per line: a merged pull request with its commits and closing issues (REST shapes). A bare REST pull object carrying commits / closing_issues is accepted too.',
  },
};

/** The JSON Schema of one line of the given import format. */
export function importJsonSchema(kind: ImportSchemaKind): Record<string, unknown> {
  const schema = z.toJSONSchema(kind === 'threads' ? ThreadLine : PullLine, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return { $schema, ...ABOUT[kind], ...rest };
}

/** The schema as written to docs/schema/<kind>.schema.json (two-space indent, final newline). */
export function importJsonSchemaText(kind: ImportSchemaKind): string {
  return `${JSON.stringify(importJsonSchema(kind), null, 2)}\n`;
}
