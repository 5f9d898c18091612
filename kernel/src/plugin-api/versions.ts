import { randomBytes } from 'node:crypto';

/**
 * A new opaque version string. It changes on every write; comparing two is only ever equality.
 * Time-ordered prefix plus randomness, so two writes in one millisecond still differ.
 */
export function newVersion(now: Date = new Date()): string {
  return `${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
}
