import { postgresUnavailableReason } from './postgres.js';
import type { Backend } from './host.js';

const inCI = () => process.env.CI === 'true' || process.env.CI === '1';

/**
 * Skips the current test (with a visible reason) when a service or toolchain is missing, except in
 * CI, where a missing one is a failure: nothing is ever skipped in CI.
 */
export function requireToolchain(ctx: { skip(): void }, reason: string | null): void {
  if (!reason) return;
  if (inCI()) throw new Error(`Required in CI but missing: ${reason}`);
  // eslint-disable-next-line no-console
  console.warn(`    [skipped] ${reason}`);
  ctx.skip();
}

/**
 * Declares a suite once per storage backend (SQLite and PostgreSQL). `describe` is mocha's.
 * The body receives the backend; a `before` hook skips (or fails in CI) when PostgreSQL is down.
 */
export function onEachBackend(
  describe: (title: string, fn: (this: any) => void) => void,
  before: (fn: (this: { skip(): void }) => Promise<void>) => void,
  title: string,
  body: (backend: Backend) => void,
): void {
  for (const backend of ['sqlite', 'postgres'] as const) {
    describe(`${title} [${backend}]`, function () {
      if (backend === 'postgres') {
        before(async function () {
          requireToolchain(this, await postgresUnavailableReason());
        });
      }
      body(backend);
    });
  }
}
