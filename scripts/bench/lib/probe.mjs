/**
 * Preload for benchmarks: `node --import ./scripts/bench/lib/probe.mjs <entry>` with
 * TK_BENCH_PROBE=<file prefix>. Outside the server's code, so the kernel needs no debug hooks.
 * - With TK_BENCH_PROBE_MODULES=1, records every ESM URL resolved (in `<prefix>.esm`, via a loader
 *   hook, which costs an extra thread) and, at exit, every
 *   CommonJS module in require.cache (in `<prefix>.exit.json`): proof of what a start loads.
 * - On SIGUSR2, runs a full GC when started with --expose-gc and writes process.memoryUsage()
 *   to `<prefix>.mem.json`.
 */
import { writeFileSync, renameSync } from 'node:fs';
import Module, { register } from 'node:module';

const prefix = process.env.TK_BENCH_PROBE;
if (prefix) {
  // The loader hooks run in an extra thread (memory!), so only when the module list is wanted.
  if (process.env.TK_BENCH_PROBE_MODULES === '1') register('./probe-hooks.mjs', import.meta.url, { data: { file: `${prefix}.esm` } });
  const atomicWrite = (file, value) => {
    writeFileSync(`${file}.tmp`, JSON.stringify(value));
    renameSync(`${file}.tmp`, file);
  };
  process.on('exit', () => atomicWrite(`${prefix}.exit.json`, { cjs: Object.keys(Module._cache) }));
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    atomicWrite(`${prefix}.mem.json`, { at: Date.now(), gc: typeof globalThis.gc === 'function', ...process.memoryUsage() });
  });
}
