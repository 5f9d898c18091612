import type { ErrorCode } from './errors.js';

/** The JSON envelope every tool returns (ARCHITECTURE §4). */
export interface ToolEnvelope {
  success: boolean;
  result?: unknown;
  error?: { code: ErrorCode; message: string; hint?: string; reference?: string; [k: string]: unknown };
}

const NOT_MODIFIED = Symbol.for('testkeeper.notModified');

/** A success that says the caller's copy is current (`if_version_matches`). */
export interface NotModified {
  [NOT_MODIFIED]: true;
  version: string;
}

export function notModified(version: string): NotModified {
  return { [NOT_MODIFIED]: true, version };
}

export function isNotModified(value: unknown): value is NotModified {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[NOT_MODIFIED] === true;
}

/** A page of a list: `next_offset` is null at the end. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
}

export function page<T>(items: T[], total: number, limit: number, offset: number): Page<T> {
  const next = offset + items.length;
  return { items, total, limit, offset, next_offset: next < total ? next : null };
}

/** Keep only the named fields of a record, in the order asked (`fields` parameters). */
export function pickFields<T extends object>(record: T, fields: readonly string[] | undefined): Partial<T> {
  if (!fields || fields.length === 0) return record;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in record) out[f] = (record as Record<string, unknown>)[f];
  return out as Partial<T>;
}
