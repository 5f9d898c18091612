/**
 * Durable job queue on SQLite (in-process delivery): end-to-end latency of one job at a time
 * (enqueue → passed, as a polling client would see it) and throughput of a burst of independent
 * jobs. Also the deterministic generator and the patch engine, the pure parts of the scripts pack.
 * Fixed counts; no network.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nowMs, percentile, round } from './lib/stats.mjs';

const SERIAL = 200;
const BURST = 1000;
const GENERATIONS = 2000;
const PATCHES = 20000;

export default async function run({ root, log }) {
  const imp = (p) => import(pathToFileURL(path.join(root, p)).href);
  const { Kernel } = await imp('kernel/dist/host.js');
  const { Tokens } = await imp('kernel/dist/plugin-api/index.js');
  const { pino } = await import('pino');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-bench-jobs-'));
  const out = [];
  const kernel = await Kernel.boot({ env: {}, logger: pino({ level: 'silent' }), overrides: { dataDir, log: { level: 'silent' } } });
  try {
    const jobs = kernel.container.resolve(Tokens.Jobs);
    jobs.define('bench.echo', async (job) => job.payload);
    const lat = [];
    for (let i = 0; i < SERIAL; i++) {
      const t0 = nowMs();
      const { id } = await jobs.enqueue('bench.echo', { i }, 1);
      const done = await jobs.waitFor(id, 10_000);
      if (done?.state !== 'passed') throw new Error(`job ${id} ended ${done?.state}`);
      lat.push(nowMs() - t0);
    }
    out.push({ name: 'job enqueue → passed p50 (SQLite)', value: round(percentile(lat, 50), 2), unit: 'ms', target: '≤ 50' });
    out.push({ name: 'job enqueue → passed p95 (SQLite)', value: round(percentile(lat, 95), 2), unit: 'ms', target: '≤ 150' });

    const t0 = nowMs();
    const ids = [];
    for (let i = 0; i < BURST; i++) ids.push((await jobs.enqueue('bench.echo', { i }, 1)).id);
    for (const id of ids) await jobs.waitFor(id, 60_000);
    const secs = (nowMs() - t0) / 1000;
    out.push({ name: `${BURST} jobs enqueued and run (SQLite)`, value: round(BURST / secs, 0), unit: 'jobs/s', target: '≥ 100' });
    log(`jobs: serial p50 ${round(percentile(lat, 50), 2)} ms, burst ${round(BURST / secs, 0)} jobs/s`);
  } finally {
    await kernel.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const { generateDeterministic } = await imp('plugins/scripts/dist/generation/index.js');
  const tc = {
    title: 'Checkout with a saved card',
    steps: [
      { step: 'Go to /cart', expected: 'The title should contain "Cart"' },
      { step: 'Click the "Checkout" button', expected: 'The URL should contain "/checkout"' },
      { step: 'Select "Visa ending 4242" from the "Card" dropdown' },
      { step: 'Type "4242" into the "CVC" field' },
      { step: 'Click the "Pay now" button', expected: 'User should see "Thank you"' },
    ],
  };
  let t = nowMs();
  for (let i = 0; i < GENERATIONS; i++) generateDeterministic(tc, i % 2 ? 'pytest' : 'browser');
  out.push({ name: 'deterministic generation (5 steps)', value: round(((nowMs() - t) * 1000) / GENERATIONS, 1), unit: 'µs/test case', target: '≤ 1000' });

  const { applyPatch } = await imp('plugins/scripts/dist/patch/patch-engine.js');
  const code = Array.from({ length: 400 }, (_, i) => `  await page.getByText("line ${i}").click();`).join('\n');
  t = nowMs();
  for (let i = 0; i < PATCHES; i++) {
    const r = applyPatch(code, [{ old_string: `"line ${i % 400}"`, new_string: '"patched"' }]);
    if (!r.ok) throw new Error(r.message);
  }
  out.push({ name: 'patch of a 400-line script (1 anchored edit)', value: round(((nowMs() - t) * 1000) / PATCHES, 1), unit: 'µs/patch', target: '≤ 500' });
  return out;
}
