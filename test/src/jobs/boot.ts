import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { Kernel } from '@testkeeper/kernel/host';
import { Tokens, type JobQueue } from '@testkeeper/kernel';
import { createTempDatabase, type Backend } from '@testkeeper/kernel/testing';

/** The kernel's JobQueue plus the operations tests drive directly. */
export type JobServiceLike = JobQueue & { recover(): Promise<string[]>; startProcessing(): Promise<void> };

export const jobsOf = (kernel: Kernel) => kernel.container.resolve(Tokens.Jobs) as JobServiceLike;

/** A place (data dir, and a database on PostgreSQL) that several kernels can boot on in turn. */
export async function newStore(backend: Backend) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-jobs-'));
  const db = backend === 'postgres' ? await createTempDatabase() : undefined;
  const overrides = { dataDir, storage: db ? { url: db.url } : {}, log: { level: 'silent' } };
  return {
    dataDir,
    url: db?.url,
    overrides,
    boot: () => Kernel.boot({ env: {}, logger: pino({ level: process.env.TESTKEEPER_TEST_LOG ?? 'silent' }), overrides }),
    async drop() {
      await db?.drop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` returns a value, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, ms = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
