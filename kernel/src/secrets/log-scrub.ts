import { pino } from 'pino';
import type { Logger } from '../plugin-api/services.js';

interface WritableLike {
  write(chunk: string | Uint8Array, ...rest: unknown[]): unknown;
}

/**
 * Masks known secret values in every log line: wraps the write of the logger's destination, which
 * all child loggers share. Lines are JSON, so a value is matched as it appears there (values with
 * quotes or backslashes appear escaped and are matched in that form too).
 */
export function scrubLogs(logger: Logger, scrub: (text: string) => string): void {
  const stream = (logger as unknown as Record<symbol, WritableLike | undefined>)[pino.symbols.streamSym];
  if (!stream || typeof stream.write !== 'function' || (stream as { __tkScrubbed?: boolean }).__tkScrubbed) return;
  const write = stream.write.bind(stream);
  stream.write = (chunk: string | Uint8Array, ...rest: unknown[]) =>
    write(typeof chunk === 'string' ? scrub(chunk) : chunk, ...rest);
  (stream as { __tkScrubbed?: boolean }).__tkScrubbed = true;
}
