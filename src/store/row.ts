import type { Statement } from 'better-sqlite3';

/**
 * Typed readers of a row's columns, for the mappers of the table groups: a row is parsed at the
 * boundary, and a column holding another type than the schema says is a bug (an Error naming the
 * column, never a silently wrong value).
 */
export type Row = Readonly<Record<string, unknown>>;

function wrong(column: string, want: string, value: unknown): Error {
  return new Error(`stored row: column ${column} holds ${value === null ? 'null' : typeof value}, not ${want}`);
}

export function str(r: Row, column: string): string {
  const v = r[column];
  if (typeof v !== 'string') throw wrong(column, 'text', v);
  return v;
}

/** Text or NULL (a missing column counts as NULL). */
export function strOrNull(r: Row, column: string): string | null {
  const v = r[column];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw wrong(column, 'text', v);
  return v;
}

export function num(r: Row, column: string): number {
  const v = r[column];
  if (typeof v !== 'number') throw wrong(column, 'a number', v);
  return v;
}

/** A number or NULL (a missing column counts as NULL). */
export function numOrNull(r: Row, column: string): number | null {
  const v = r[column];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'number') throw wrong(column, 'a number', v);
  return v;
}

/** A 0/1 flag. */
export function flag(r: Row, column: string): boolean {
  return num(r, column) === 1;
}

/** A 0/1 flag or NULL (a missing column counts as NULL). */
export function flagOrNull(r: Row, column: string): boolean | null {
  const v = numOrNull(r, column);
  return v === null ? null : v === 1;
}

/** One of the values a CHECK constraint allows. */
export function oneOf<T extends string>(r: Row, column: string, values: readonly T[]): T {
  const v = str(r, column);
  if (!(values as readonly string[]).includes(v)) throw new Error(`stored row: column ${column} holds ${JSON.stringify(v)}, not one of ${values.join(', ')}`);
  return v as T;
}

/** One of the allowed values or NULL. */
export function oneOfOrNull<T extends string>(r: Row, column: string, values: readonly T[]): T | null {
  return strOrNull(r, column) === null ? null : oneOf(r, column, values);
}

/** JSON text written by the same table group (its shape is the writer's type). */
export function json<T>(r: Row, column: string): T {
  return JSON.parse(str(r, column)) as T;
}

/** JSON text or NULL. */
export function jsonOrNull<T>(r: Row, column: string): T | null {
  const v = strOrNull(r, column);
  return v === null ? null : (JSON.parse(v) as T);
}

/** The row a statement returns (undefined when none). */
export function getRow(statement: Statement, ...params: unknown[]): Row | undefined {
  return asRow(statement.get(...params));
}

/** Every row a statement returns. */
export function allRows(statement: Statement, ...params: unknown[]): Row[] {
  return statement.all(...params).map((r) => asRow(r)!);
}

function asRow(v: unknown): Row | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null) throw new Error(`stored row: a statement returned ${v === null ? 'null' : typeof v}, not a row`);
  return v as Row;
}
