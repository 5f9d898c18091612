/** Stable error codes every tool may return (ARCHITECTURE §4). */
export const ERROR_CODES = [
  'invalid_argument',
  'not_found',
  'forbidden',
  'conflict',
  'not_modified',
  'needs_confirmation',
  'unavailable',
  'upstream_error',
  'timeout',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * A failure the client should see. The message says what was wrong; the hint says what to do next.
 * `details` carries structured data (similar projects, current version, allowed values).
 */
export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export const invalidArgument = (message: string, hint?: string, details?: Record<string, unknown>) =>
  new ToolError('invalid_argument', message, hint, details);

/** Another user's object must look exactly like a missing one: callers pass only kind and id. */
export const notFound = (kind: string, id: unknown, hint?: string) =>
  new ToolError('not_found', `${kind} ${String(id)} was not found`, hint ?? `Check the ${kind} id; list them to see the ones you can use.`);

export const conflict = (message: string, hint?: string, details?: Record<string, unknown>) =>
  new ToolError('conflict', message, hint, details);

export const forbidden = (message: string, hint?: string) => new ToolError('forbidden', message, hint);

export const unavailable = (message: string, hint?: string) => new ToolError('unavailable', message, hint);

/** A boot-time failure: a coded, readable reason the server cannot start. */
export class BootError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`[${code}] ${message}`);
    this.name = 'BootError';
  }
}
