import { pino } from 'pino';
import type { Logger } from './plugin-api/services.js';

/** JSON logs to stderr only: stdout belongs to the stdio transport. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { svc: 'testkeeper' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ fd: 2, sync: false }));
}
